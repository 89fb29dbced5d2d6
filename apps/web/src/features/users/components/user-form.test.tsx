import { FEATURE_FLAGS, type UserInput } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { copyToFormValues, EMPTY_USER_FORM, toUserInput, UserForm, type UserFormValues } from './user-form';

/** Puts text into a field in one input event: as a paste would, much faster than typing key by key. */
async function fillIn(
  user: { click(e: Element): Promise<void>; paste(text: string): Promise<void> },
  field: HTMLElement,
  text: string,
) {
  await user.click(field);
  await user.paste(text);
}

const GROUPS = [
  { id: '6f1c2a54-7d0e-4f1b-9a57-0c1d2e3f4a5b', name: 'Engineering' },
  { id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: 'Sales' },
];

function setup(onSubmit = vi.fn<(input: UserInput) => Promise<unknown>>().mockResolvedValue(undefined)) {
  const result = renderWithProviders(
    <UserForm groupOptions={GROUPS} submitLabel="Add user" onSubmit={onSubmit} onCancel={() => {}} />,
  );
  return { ...result, onSubmit };
}

describe('UserForm', () => {
  it('shows translated contract errors on the fields and does not submit', async () => {
    const { user, onSubmit } = setup();
    await fillIn(user, screen.getByLabelText(/^Username/), 'not-an-address');
    await fillIn(user, screen.getByLabelText(/^SUCI/), 'suci-1-bad');
    await user.click(screen.getByRole('button', { name: 'Add user' }));

    // Each message is the translated text of the contract's key, linked to its input (aria-describedby).
    await waitFor(() =>
      expect(screen.getByLabelText(/^Username/)).toHaveAccessibleDescription(
        expect.stringContaining('Enter a valid e-mail address.'),
      ),
    );
    expect(screen.getByLabelText(/^First name/)).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByLabelText(/^Last name/)).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByLabelText(/^Username/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^SUCI/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter a SUCI like suci-0-001-01-0000-0-0-0123456789.'),
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the contract input: e-mail follows the username, an empty SUCI is none', async () => {
    const { user, onSubmit } = setup();
    await fillIn(user, screen.getByLabelText(/^Username/), 'grace@acme.example');
    await fillIn(user, screen.getByLabelText(/^First name/), 'Grace');
    await fillIn(user, screen.getByLabelText(/^Last name/), 'Hopper');
    expect(screen.getByLabelText(/^E-mail/)).toHaveValue('grace@acme.example');
    await user.click(screen.getByRole('switch', { name: /^Private access/ }));
    await user.click(screen.getByRole('button', { name: 'Add user' }));

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({
      username: 'grace@acme.example',
      firstname: 'Grace',
      lastname: 'Hopper',
      email: 'grace@acme.example',
      groups: [],
      isprvaccess: true,
      issiauser: false,
      isxdrenabled: false,
      suci: null,
    });
  });

  it("puts the server's per-field details on the fields, translated", async () => {
    const refused = new ApiError(409, {
      errcode: 13,
      code: 'user_exists',
      message: 'A user with this username exists.',
      details: [{ path: 'body.username', message: 'validation.usernameTaken' }],
    });
    const { user } = setup(vi.fn().mockRejectedValue(refused));
    await fillIn(user, screen.getByLabelText(/^Username/), 'taken@acme.example');
    await fillIn(user, screen.getByLabelText(/^First name/), 'Tess');
    await fillIn(user, screen.getByLabelText(/^Last name/), 'Taken');
    await user.click(screen.getByRole('button', { name: 'Add user' }));

    await waitFor(() =>
      expect(screen.getByLabelText(/^Username/)).toHaveAccessibleDescription(
        expect.stringContaining('A user with this e-mail already exists.'),
      ),
    );
    expect(screen.getByLabelText(/^Username/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Username/)).toHaveFocus();
  });
});

describe('UserForm: the XDR switch (FEATURE_PARTS users.xdrField)', () => {
  const withXdr = makeSession();
  const withoutXdr = makeSession({ features: FEATURE_FLAGS.filter((flag) => flag !== 'xdr') });

  function setupIn(session: ReturnType<typeof makeSession>, initialValues?: UserFormValues) {
    const onSubmit = vi.fn<(input: UserInput) => Promise<unknown>>().mockResolvedValue(undefined);
    const result = renderWithProviders(
      <UserForm initialValues={initialValues} groupOptions={GROUPS} submitLabel="Save" onSubmit={onSubmit} />,
      { session },
    );
    return { ...result, onSubmit };
  }

  it('shows the switch while the working tenant has XDR', () => {
    setupIn(withXdr);
    expect(screen.getByRole('switch', { name: /^XDR/ })).toBeInTheDocument();
  });

  it('hides the switch while the working tenant has no XDR', () => {
    setupIn(withoutXdr);
    expect(screen.queryByRole('switch', { name: /^XDR/ })).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /^Private access/ })).toBeInTheDocument();
  });

  it('without XDR keeps an existing user’s own value and turns it off for a new user (a copy)', async () => {
    const existing: UserFormValues = {
      ...EMPTY_USER_FORM,
      username: 'ada@acme.example',
      firstname: 'Ada',
      lastname: 'Lovelace',
      isxdrenabled: true,
    };
    const edit = setupIn(withoutXdr, existing);
    await edit.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(edit.onSubmit).toHaveBeenCalledTimes(1));
    expect(edit.onSubmit.mock.calls[0][0]).toMatchObject({
      username: 'ada@acme.example',
      isxdrenabled: true,
    });
    edit.unmount();

    const copy = setupIn(withoutXdr, { ...existing, username: '', email: '' });
    await fillIn(copy.user, screen.getByLabelText(/^Username/), 'grace@acme.example');
    await copy.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(copy.onSubmit).toHaveBeenCalledTimes(1));
    expect(copy.onSubmit.mock.calls[0][0]).toMatchObject({
      username: 'grace@acme.example',
      isxdrenabled: false,
    });
  });
});

describe('copyToFormValues', () => {
  it('keeps names, groups and flags and clears what identifies a person or a SIM', () => {
    const values = copyToFormValues({
      id: '1',
      userid: '1',
      username: 'ada@acme.example',
      shortname: 'ada',
      firstname: 'Ada',
      lastname: 'Lovelace',
      fullname: 'Ada Lovelace',
      email: 'ada@acme.example',
      groups: [GROUPS[0].id],
      connstatus: 'connected',
      isprvaccess: true,
      issiauser: false,
      isxdrenabled: true,
      suci: 'suci-0-001-01-0000-0-0-0123456789',
      imsi: '001010123456789',
      usertype: 0,
      tenant: 'acme',
      status: 'active',
      statusReason: null,
      statusChangedBy: null,
      statusChangedAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(values).toEqual({
      username: '',
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: '',
      groups: [GROUPS[0].id],
      isprvaccess: true,
      issiauser: false,
      isxdrenabled: true,
      suci: '',
    });
    expect(toUserInput(values)).toMatchObject({ email: undefined, suci: null });
  });
});

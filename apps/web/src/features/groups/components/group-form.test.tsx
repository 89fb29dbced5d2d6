import type { GroupInput } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { renderWithProviders } from '../../../testing/render';
import { GroupForm, type GroupFormValues } from './group-form';

function setup(
  onSubmit = vi.fn<(input: GroupInput) => Promise<unknown>>().mockResolvedValue(undefined),
  initialValues?: GroupFormValues,
) {
  const result = renderWithProviders(
    <GroupForm
      initialValues={initialValues}
      submitLabel="Add group"
      onSubmit={onSubmit}
      onCancel={() => {}}
    />,
  );
  return { ...result, onSubmit };
}

describe('GroupForm', () => {
  it('requires a name that is more than spaces, with the message on the field, and sends nothing', async () => {
    const { user, onSubmit } = setup();
    await user.type(screen.getByLabelText(/^Name/), '   ');
    await user.click(screen.getByRole('button', { name: 'Add group' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Name/)).toHaveAccessibleDescription(
        expect.stringContaining('This field is required.'),
      ),
    );
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Name/)).toHaveFocus();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the name and description', async () => {
    const { user, onSubmit } = setup();
    await user.type(screen.getByLabelText(/^Name/), 'Engineering');
    await user.type(screen.getByLabelText(/^Description/), 'Builds things');
    await user.click(screen.getByRole('button', { name: 'Add group' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Engineering', description: 'Builds things' });
  });

  it('starts from given values (edit and copy)', () => {
    setup(undefined, { name: 'Sales (copy)', description: 'Sells' });
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Sales (copy)');
    expect(screen.getByLabelText(/^Description/)).toHaveValue('Sells');
  });

  it('puts a taken name (409 with details) on the name field, translated and focused', async () => {
    const refused = new ApiError(409, {
      errcode: 5,
      code: 'conflict',
      message: 'A group with this name exists.',
      details: [{ path: 'body.name', message: 'validation.groupNameTaken' }],
    });
    const { user } = setup(vi.fn().mockRejectedValue(refused));
    await user.type(screen.getByLabelText(/^Name/), 'Sales');
    await user.click(screen.getByRole('button', { name: 'Add group' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Name/)).toHaveAccessibleDescription(
        expect.stringContaining('A group with this name already exists.'),
      ),
    );
    expect(screen.getByLabelText(/^Name/)).toHaveFocus();
  });
});

import type { LocationInput } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { renderWithProviders } from '../../../testing/render';
import { LocationForm } from './location-form';

function setup(onSubmit = vi.fn<(input: LocationInput) => Promise<unknown>>().mockResolvedValue(undefined)) {
  const result = renderWithProviders(<LocationForm onSubmit={onSubmit} onCancel={() => {}} />);
  return { ...result, onSubmit };
}

const network = (position: number) => screen.getByRole('textbox', { name: `Network ${position}` });

describe('LocationForm', () => {
  it('allows 16 networks at most: the counter shows it and "Add network" is disabled at the limit', async () => {
    const { user } = setup();
    const networks = screen.getByRole('group', { name: 'Networks' });
    expect(within(networks).getByText('1 / 16')).toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add network' });
    for (let i = 0; i < 15; i += 1) await user.click(add);

    expect(within(networks).getAllByRole('textbox')).toHaveLength(16);
    expect(within(networks).getByText('16 / 16')).toBeInTheDocument();
    expect(add).toBeDisabled();
    expect(screen.getByText('The limit of 16 is reached.')).toBeInTheDocument();
    // The new entry got the focus, so typing goes on without reaching for the mouse.
    expect(network(16)).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Remove Network 16' }));
    expect(within(networks).getByText('15 / 16')).toBeInTheDocument();
    expect(add).toBeEnabled();
  });

  it('flags a repeated network on the repeated entry and sends nothing', async () => {
    const { user, onSubmit } = setup();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Head office');
    await user.type(network(1), '203.0.113.0/24');
    await user.click(screen.getByRole('button', { name: 'Add network' }));
    await user.type(network(2), '203.0.113.0/24');
    await user.click(screen.getByRole('button', { name: 'Add location' }));

    await waitFor(() => expect(network(2)).toHaveAccessibleDescription('This entry appears twice.'));
    expect(network(2)).toHaveAttribute('aria-invalid', 'true');
    expect(network(1)).not.toHaveAttribute('aria-invalid', 'true');
    expect(network(2)).toHaveFocus();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses entries that are neither an IP nor a CIDR block', async () => {
    const { user, onSubmit } = setup();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Branch');
    await user.type(network(1), '10.0.0.0/33');
    await user.click(screen.getByRole('button', { name: 'Add location' }));
    await waitFor(() =>
      expect(network(1)).toHaveAccessibleDescription(
        'Enter an IPv4 address or a CIDR block such as 203.0.113.0/24.',
      ),
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('puts the server details on the entry they name (body.networks.1)', async () => {
    const refused = new ApiError(400, {
      errcode: 2,
      code: 'validation_failed',
      message: 'Some fields are not valid.',
      details: [
        { path: 'body.networks.0', message: 'validation.overlap' },
        { path: 'body.networks.1', message: 'validation.overlap' },
      ],
    });
    const { user, onSubmit } = setup(vi.fn().mockRejectedValue(refused));
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Branch');
    await user.type(network(1), '192.0.2.0/24');
    await user.click(screen.getByRole('button', { name: 'Add network' }));
    await user.type(network(2), '192.0.2.77');
    await user.click(screen.getByRole('button', { name: 'Add location' }));

    await waitFor(() =>
      expect(network(2)).toHaveAccessibleDescription('This entry lies inside another entry of the list.'),
    );
    expect(network(1)).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Branch',
      description: '',
      networks: ['192.0.2.0/24', '192.0.2.77'],
    });
  });

  it('shows the policy tests a refused save would break', async () => {
    const refused = new ApiError(409, {
      errcode: 19,
      code: 'policy_tests_failed',
      message: 'This change would break a policy test.',
      failures: [
        { testId: 't1', name: 'Office reaches the wiki', expect: 'allow', actual: 'block', rule: null },
      ],
    });
    const { user } = setup(vi.fn().mockRejectedValue(refused));
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Office');
    await user.type(network(1), '198.51.100.0/24');
    await user.click(screen.getByRole('button', { name: 'Add location' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Office reaches the wiki')).toBeInTheDocument();
    expect(alert).toHaveTextContent(/expected Allowed, would be Blocked/);
  });
});

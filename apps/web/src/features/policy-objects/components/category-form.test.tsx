import type { CategoryInput, UrlFeedInput } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { renderWithProviders } from '../../../testing/render';
import { CategoryForm } from './category-form';
import { UrlFeedFormModal } from './url-feed-form';

async function setup(
  onSubmit = vi.fn<(input: CategoryInput) => Promise<unknown>>().mockResolvedValue(undefined),
) {
  const result = renderWithProviders(<CategoryForm onSubmit={onSubmit} onCancel={() => {}} />);
  await screen.findByRole('textbox', { name: /^Name/ });
  return { ...result, onSubmit };
}

const domains = () => screen.getByRole('textbox', { name: /^Domains, one per line/ });

describe('CategoryForm', () => {
  it('sends the non-blank lines as domains and counts them as they are typed', async () => {
    const { user, onSubmit } = await setup();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Partners');
    await user.type(domains(), 'partner.example{Enter}{Enter}  supplier.example  ');
    expect(screen.getByText('2 domains. A domain also matches its subdomains.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add category' }));

    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        name: 'Partners',
        description: '',
        domains: ['partner.example', 'supplier.example'],
      }),
    );
  });

  it('names the line of a bad or repeated domain and sends nothing', async () => {
    const { user, onSubmit } = await setup();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Partners');
    await user.type(domains(), 'partner.example{Enter}{Enter}not a domain{Enter}partner.example');
    await user.click(screen.getByRole('button', { name: 'Add category' }));

    await waitFor(() => expect(domains()).toHaveAttribute('aria-invalid', 'true'));
    expect(domains()).toHaveFocus();
    expect(screen.getByText('Line 3: Enter a valid domain or URL.')).toBeInTheDocument();
    expect(screen.getByText('Line 4: This entry appears twice.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("puts the server's details on the line the entry came from (body.domains.1 is line 3)", async () => {
    const refused = new ApiError(400, {
      errcode: 2,
      code: 'validation_failed',
      message: 'Some fields are not valid.',
      details: [{ path: 'body.domains.1', message: 'validation.duplicate' }],
    });
    const { user } = await setup(vi.fn().mockRejectedValue(refused));
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Partners');
    await user.type(domains(), 'partner.example{Enter}{Enter}supplier.example');
    await user.click(screen.getByRole('button', { name: 'Add category' }));

    expect(await screen.findByText('Line 3: This entry appears twice.')).toBeInTheDocument();
    expect(domains()).toHaveFocus();
  });

  it('shows the policy tests a refused save would break', async () => {
    const refused = new ApiError(409, {
      errcode: 19,
      code: 'policy_tests_failed',
      message: 'This change would break a policy test.',
      failures: [
        { testId: 't1', name: 'Partners stay reachable', expect: 'allow', actual: 'block', rule: null },
      ],
    });
    const { user } = await setup(vi.fn().mockRejectedValue(refused));
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Partners');
    await user.type(domains(), 'partner.example');
    await user.click(screen.getByRole('button', { name: 'Add category' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Partners stay reachable')).toBeInTheDocument();
  });
});

describe('UrlFeedFormModal', () => {
  it('refuses an address that is not http(s), then sends the feed with its refresh interval as minutes', async () => {
    const onSubmit = vi.fn<(input: UrlFeedInput) => Promise<unknown>>().mockResolvedValue(undefined);
    const { user } = renderWithProviders(<UrlFeedFormModal opened onSubmit={onSubmit} onCancel={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Add URL feed' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Abuse list');
    const url = within(dialog).getByRole('textbox', { name: /^URL/ });
    await user.type(url, 'ftp://feeds.example.com/list.txt');
    await user.click(within(dialog).getByRole('button', { name: 'Add feed' }));

    await waitFor(() =>
      expect(url).toHaveAccessibleDescription(/Enter an http:\/\/ or https:\/\/ address\./),
    );
    expect(url).toHaveFocus();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(url);
    await user.type(url, ' https://feeds.example.com/list.txt ');
    await user.click(within(dialog).getByRole('button', { name: 'Add feed' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        name: 'Abuse list',
        url: 'https://feeds.example.com/list.txt',
        refreshMinutes: 1440,
        enabled: true,
      }),
    );
  });
});

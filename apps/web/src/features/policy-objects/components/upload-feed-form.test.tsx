import type { UploadFeedInput } from '@palisade/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { renderWithProviders } from '../../../testing/render';
import { UploadFeedForm } from './upload-feed-form';

function setup(
  onSubmit = vi.fn<(input: UploadFeedInput) => Promise<unknown>>().mockResolvedValue(undefined),
) {
  const result = renderWithProviders(<UploadFeedForm onSubmit={onSubmit} onCancel={() => {}} />);
  return { ...result, onSubmit };
}

/** Chooses a file as the file dialog would (the `accept` filter of the dialog is not a check). */
function chooseFile(name: string, content: string) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [new File([content], name, { type: 'text/plain' })] } });
}

const uploadButton = () => screen.getByRole('button', { name: 'Upload' });

describe('UploadFeedForm', () => {
  it('offers .txt files only and refuses any other name before reading it', async () => {
    setup();
    expect(document.querySelector('input[type="file"]')).toHaveAttribute('accept', '.txt,text/plain');
    chooseFile('blocklist.csv', '203.0.113.7\n');
    expect(await screen.findByText('Upload a .txt file.')).toBeInTheDocument();
    expect(screen.queryByText(/found\.$/)).not.toBeInTheDocument();
    expect(uploadButton()).toBeDisabled();

    chooseFile('.txt', '203.0.113.7\n');
    expect(await screen.findByText('Upload a .txt file.')).toBeInTheDocument();
    expect(uploadButton()).toBeDisabled();
  });

  it('previews the counts and lists unreadable lines by number, and does not upload', async () => {
    const { user, onSubmit } = setup();
    chooseFile(
      'feed.txt',
      [
        '203.0.113.7',
        'not a domain!',
        '# a comment',
        'bad..example',
        '0.0.0.0 ads.example.com',
        '10.0.0.0/8',
      ].join('\n'),
    );
    expect(await screen.findByText('2 IPs or CIDR blocks and 1 domain found.')).toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('2 lines cannot be read.');
    const lines = within(alert)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toEqual([
      'Line 2: “not a domain!” — Not an IP address, CIDR block or domain.',
      'Line 4: “bad..example” — Not an IP address, CIDR block or domain.',
    ]);
    expect(uploadButton()).toBeDisabled();
    await user.click(uploadButton());
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends a readable file with its name, and shows the lines the server refuses', async () => {
    const refused = new ApiError(400, {
      errcode: 2,
      code: 'validation_failed',
      message: 'Some fields are not valid.',
      details: [{ path: 'body.content.3', message: 'validation.feedLine' }],
    });
    const { user, onSubmit } = setup(vi.fn().mockRejectedValue(refused));
    chooseFile('Bad hosts.TXT', 'evil.example\n\n198.51.100.9\n');
    expect(await screen.findByText('1 IP or CIDR block and 1 domain found.')).toBeInTheDocument();
    // The name is taken from the file until one is typed.
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Bad hosts');

    await user.click(uploadButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Bad hosts',
      fileName: 'Bad hosts.TXT',
      content: 'evil.example\n\n198.51.100.9\n',
      enabled: true,
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('listitem')).toHaveTextContent(
      'Line 3: Not an IP address, CIDR block or domain.',
    );
  });
});

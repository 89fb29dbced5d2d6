import type { ArtefactDiff } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { ArtefactDiffView, DIFF_LINES_STEP } from './artefact-diff-view';
import { parseUnifiedDiff } from './parse-unified-diff';

const NFTABLES: ArtefactDiff = {
  artefact: 'nftables',
  added: 1,
  removed: 1,
  diff: [
    '===================================================================',
    '--- nftables',
    '+++ nftables',
    '@@ -1,3 +1,3 @@',
    ' table inet palisade {',
    '--- a removed comment that starts with dashes',
    '+  ip daddr 192.0.2.1 drop',
    '\\ No newline at end of file',
    '',
  ].join('\n'),
  isTooLarge: false,
};

/** A diff of `n` added lines. */
function longDiff(n: number): ArtefactDiff {
  const lines = Array.from({ length: n }, (_, i) => `+line ${i + 1}`);
  return {
    artefact: 'squid',
    added: n,
    removed: 0,
    diff: [`@@ -0,0 +1,${n} @@`, ...lines].join('\n'),
    isTooLarge: false,
  };
}

describe('parseUnifiedDiff', () => {
  it('drops the file header and keeps what each line of a hunk is, by its first character', () => {
    expect(parseUnifiedDiff(NFTABLES.diff)).toEqual([
      { kind: 'hunk', text: '@@ -1,3 +1,3 @@' },
      { kind: 'context', text: ' table inet palisade {' },
      { kind: 'removed', text: '--- a removed comment that starts with dashes' },
      { kind: 'added', text: '+  ip daddr 192.0.2.1 drop' },
      { kind: 'note', text: '\\ No newline at end of file' },
    ]);
    expect(parseUnifiedDiff('')).toEqual([]);
  });
});

describe('ArtefactDiffView', () => {
  it('shows a short diff at once, added lines in <ins> and removed ones in <del>, each keeping its + or -', () => {
    renderWithProviders(<ArtefactDiffView artefacts={[NFTABLES]} />);
    const panel = screen.getByRole('region', { name: 'nftables (firewall)' });
    expect(within(panel).getByText('+1 line added')).toBeInTheDocument();
    expect(within(panel).getByText('−1 line removed')).toBeInTheDocument();
    const lines = within(panel).getByRole('region', { name: 'Changes to nftables (firewall)' });
    expect(lines).toHaveAttribute('tabindex', '0');
    const added = within(lines).getByText('+ ip daddr 192.0.2.1 drop', {
      normalizer: (text) => text.replace(/\s+/g, ' ').trim(),
    });
    expect(added.tagName).toBe('INS');
    const removed = within(lines).getByText(/^--- a removed comment/);
    expect(removed.tagName).toBe('DEL');
    // The file header is not shown; the hunk header is.
    expect(within(lines).queryByText(/^\+\+\+ nftables/)).not.toBeInTheDocument();
    expect(within(lines).getByText(/^@@ -1,3 \+1,3 @@/)).toBeInTheDocument();
    expect(lines.querySelector('pre')).not.toBeNull();
  });

  it('says when a diff is too large or nothing changed, instead of the text', () => {
    renderWithProviders(
      <ArtefactDiffView
        artefacts={[
          { artefact: 'rpz', added: 5000, removed: 1, diff: '', isTooLarge: true },
          { artefact: 'squid', added: 0, removed: 0, diff: '', isTooLarge: false },
        ]}
      />,
    );
    const rpz = screen.getByRole('region', { name: 'RPZ (DNS filter)' });
    expect(within(rpz).getByText('+5,000 lines added')).toBeInTheDocument();
    expect(within(rpz).getByText(/Too many lines changed to show them here/)).toBeInTheDocument();
    expect(within(rpz).queryByRole('button')).not.toBeInTheDocument();
    const squid = screen.getByRole('region', { name: 'Squid (web proxy)' });
    expect(within(squid).getByText('Unchanged')).toBeInTheDocument();
    expect(rpz.querySelector('pre')).toBeNull();
    expect(squid.querySelector('pre')).toBeNull();
  });

  it('renders a long diff only when opened, and then step by step', async () => {
    const total = DIFF_LINES_STEP + 50;
    const { user } = renderWithProviders(<ArtefactDiffView artefacts={[longDiff(total)]} />);
    const panel = screen.getByRole('region', { name: 'Squid (web proxy)' });
    expect(panel.querySelector('pre')).toBeNull();
    const toggle = within(panel).getByRole('button', { name: `Show changes (${total + 1} lines)` });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(within(panel).getByRole('button', { name: 'Hide changes' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(panel.querySelectorAll('ins')).toHaveLength(DIFF_LINES_STEP - 1);
    expect(within(panel).getByText(`${DIFF_LINES_STEP} of ${total + 1} lines shown.`)).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Show 51 more lines' }));
    expect(panel.querySelectorAll('ins')).toHaveLength(total);
    expect(within(panel).queryByText(/lines shown/)).not.toBeInTheDocument();
  });
});

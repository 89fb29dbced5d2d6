import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import de from '../../../public/locales/de/translation.json';
import { i18n } from '../../lib/i18n';
import { renderWithProviders } from '../../testing/render';
import { RelativeTime } from './relative-time';

const NOW = Date.UTC(2026, 2, 5, 14, 5, 9);

afterEach(async () => {
  vi.useRealTimers();
  await i18n.changeLanguage('en');
});

describe('RelativeTime', () => {
  it('writes the distance in a <time> element with the moment and its full date and time', () => {
    const at = new Date(Date.now() - 5 * 60_000 - 10_000).toISOString();
    renderWithProviders(<RelativeTime value={at} />);
    const time = screen.getByText('5 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', at);
    // The date, then the time with seconds.
    expect(time.getAttribute('title')).toMatch(/^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2}\s[AP]M$/);
  });

  it('takes milliseconds and Dates, and shows the dimmed empty text without a moment', () => {
    const { unmount } = renderWithProviders(
      <>
        <RelativeTime value={Date.now() + 2 * 86_400_000 + 60_000} />
        <RelativeTime value={new Date(Date.now() - 3 * 3_600_000)} />
        <RelativeTime value={null} empty="Never" />
        <RelativeTime value="not a time" />
      </>,
    );
    expect(screen.getByText('in 2 days')).toHaveAttribute('datetime');
    expect(screen.getByText('3 hours ago').tagName).toBe('TIME');
    expect(screen.getByText('Never').tagName).not.toBe('TIME');
    expect(screen.getByText('—')).toBeInTheDocument();
    unmount();
  });

  it('follows the clock: the text changes when the next whole unit is reached', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(NOW);
    renderWithProviders(<RelativeTime value={NOW - 58_000} />);
    expect(screen.getByText('58 seconds ago')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
    });
    expect(screen.getByText('1 minute ago')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(screen.getByText('2 minutes ago')).toBeInTheDocument();
  });

  it('offers the full time in a tooltip, reachable by keyboard', () => {
    renderWithProviders(
      <RelativeTime value={new Date(Date.now() - 90_000).toISOString()} withTooltip size="sm" />,
    );
    expect(screen.getByText('1 minute ago')).toHaveAttribute('tabindex', '0');
  });

  it('follows the language', async () => {
    renderWithProviders(<RelativeTime value={Date.now() - 5 * 60_000 - 10_000} />);
    expect(screen.getByText('5 minutes ago')).toBeInTheDocument();
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await act(async () => {
      await i18n.changeLanguage('de');
    });
    const time = screen.getByText('vor 5 Minuten');
    expect(time.getAttribute('title')).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2}$/);
  });
});

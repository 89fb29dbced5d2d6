import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../../public/locales/de/translation.json';
import { i18n } from '../../lib/i18n';
import { pickDateTime } from '../../testing/date-time';
import { renderWithProviders } from '../../testing/render';
import { DateTimeField, fromPickerValue, toPickerValue } from './date-time-field';

function Field({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateTimeField label="From" value={value} onChange={setValue} />
      <output aria-label="Value">{value}</output>
    </>
  );
}

async function inGerman() {
  i18n.addResourceBundle('de', 'translation', de, true, true);
  await i18n.changeLanguage('de');
}

afterEach(async () => {
  if (i18n.isInitialized) await i18n.changeLanguage('en');
});

describe('DateTimeField', () => {
  it('converts between datetime-local strings and the picker value', () => {
    expect(toPickerValue('2026-03-01T09:30')).toBe('2026-03-01 09:30:00');
    expect(toPickerValue('')).toBeNull();
    expect(fromPickerValue('2026-03-01 09:30:00')).toBe('2026-03-01T09:30');
    expect(fromPickerValue(null)).toBe('');
  });

  it('shows the value in English, 12-hour clock', () => {
    renderWithProviders(<Field initial="2026-03-01T14:05" />);
    expect(screen.getByLabelText('From')).toHaveTextContent('Mar 1, 2026 2:05 PM');
  });

  it('shows the value in German when the app is in German, whatever the browser', async () => {
    await inGerman();
    renderWithProviders(<Field initial="2026-03-01T14:05" />);
    expect(screen.getByLabelText('From')).toHaveTextContent('1. März 2026 14:05');
  });

  it('is set through the calendar in German: German day names, controls and 24-hour clock', async () => {
    await inGerman();
    const { user } = renderWithProviders(<Field initial="2026-01-10T08:00" />);
    // Monday first, in German.
    await user.click(screen.getByLabelText('From'));
    const weekdays = await screen.findAllByRole('columnheader', { hidden: true });
    expect(weekdays.map((cell) => cell.textContent)).toEqual(['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So']);
    await user.keyboard('{Escape}');
    await pickDateTime(user, screen.getByLabelText('From'), '2026-03-01T21:45');
    await waitFor(() => expect(screen.getByLabelText('Value')).toHaveTextContent('2026-03-01T21:45'));
  });

  it('is set through the calendar in English, with the AM/PM choice', async () => {
    const { user } = renderWithProviders(<Field />);
    await pickDateTime(user, screen.getByLabelText('From'), '2026-03-01T21:45');
    await waitFor(() => expect(screen.getByLabelText('Value')).toHaveTextContent('2026-03-01T21:45'));
  });
});

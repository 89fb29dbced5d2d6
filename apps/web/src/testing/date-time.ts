import { within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { i18n } from '../lib/i18n';

type User = ReturnType<typeof userEvent.setup>;

/** Popovers are found with `hidden: true`: happy-dom lays nothing out, so Mantine keeps them hidden. */
const POPOVER = { hidden: true } as const;

/**
 * Sets a date-time field (components/ui/date-time-field) as a user would: opens it, steps the calendar to the
 * month, picks the day, types the time and applies. `value` is `2026-03-01T09:30`. Controls are found by their
 * names in the active language, so the helper works, and checks them, in English and German alike.
 */
export async function pickDateTime(user: User, field: HTMLElement, value: string): Promise<void> {
  const locale = i18n.resolvedLanguage ?? 'en';
  const t = (key: string) => i18n.t(key);
  const target = dayjs(value);
  await user.click(field);
  // This field's own dropdown: another picker's may still be closing.
  const dropdownId = field.getAttribute('aria-controls');
  const dropdown = (dropdownId && document.getElementById(dropdownId)) || document.body;
  // Plain selectors on the names: role queries over a month of buttons are slow in happy-dom.
  const byName = (name: string) => dropdown.querySelectorAll<HTMLElement>(`button[aria-label="${name}"]`);
  const dayName = (day: dayjs.Dayjs) => day.locale(locale).format('D MMMM YYYY');
  // The month shown: the one whose 15th is on screen (the field's month, or today's when it is empty).
  const shown = Array.from({ length: 481 }, (_, i) => target.add(i - 240, 'month').date(15)).find(
    (day) => byName(dayName(day)).length > 0,
  );
  const stepName = shown?.isAfter(target) ? 'common.dateTime.previousMonth' : 'common.dateTime.nextMonth';
  const findDay = () => [...byName(dayName(target))].find((button) => !button.hasAttribute('data-outside'));
  for (let step = 0; !findDay(); step += 1) {
    if (step === 480) throw new Error(`pickDateTime: ${dayName(target)} is not reachable in the calendar`);
    await user.click(byName(t(stepName))[0]);
  }
  await user.click(findDay() as HTMLElement);
  const hours = within(dropdown).getByRole('spinbutton', {
    name: t('common.dateTime.hours'),
    ...POPOVER,
  });
  const minutes = within(dropdown).getByRole('spinbutton', {
    name: t('common.dateTime.minutes'),
    ...POPOVER,
  });
  const isTwelveHour = locale === 'en';
  const hour = isTwelveHour ? ((target.hour() + 11) % 12) + 1 : target.hour();
  await user.clear(hours);
  await user.type(hours, String(hour).padStart(2, '0'));
  await user.clear(minutes);
  await user.type(minutes, String(target.minute()).padStart(2, '0'));
  if (isTwelveHour) {
    const amPm = within(dropdown).getByLabelText(t('common.dateTime.amPm'));
    amPm.focus();
    await user.keyboard(target.hour() < 12 ? 'a' : 'p');
  }
  await user.click(within(dropdown).getByRole('button', { name: t('common.dateTime.apply'), ...POPOVER }));
}

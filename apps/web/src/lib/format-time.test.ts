import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import de from '../../public/locales/de/translation.json';
import { initTestI18n } from '../testing/render';
import {
  dateTimeFormat,
  formatDate,
  formatDateFields,
  formatDateTime,
  formatDuration,
  formatLocale,
  formatRelativeTime,
  formatTime,
  formatters,
  formatWeekday,
  NO_TIME,
  relativeTimeChangesIn,
  toTimestamp,
  userTimeZone,
} from './format-time';
import { i18n } from './i18n';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
/** 5 March 2026, 14:05:09 UTC. */
const AT = Date.UTC(2026, 2, 5, 14, 5, 9);
const UTC = { timeZone: 'UTC' };
/** Intl may separate with no-break spaces (U+00A0, U+202F): compared as plain spaces. */
const plain = (text: string) => text.replace(/\s/g, ' ');

beforeAll(() => {
  initTestI18n().addResourceBundle('de', 'translation', de, true, true);
});

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('toTimestamp', () => {
  it.each([
    ['2026-03-05T14:05:09Z', AT],
    [AT, AT],
    [new Date(AT), AT],
    [null, null],
    [undefined, null],
    ['', null],
    ['not a time', null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    [new Date('nonsense'), null],
  ])('%s → %s', (value, expected) => {
    expect(toTimestamp(value)).toBe(expected);
  });
});

describe('formatLocale', () => {
  it('takes en and de, regional or not, and gives English for the rest', () => {
    expect(formatLocale('de-AT')).toBe('de');
    expect(formatLocale('en-US')).toBe('en');
    expect(formatLocale('fr')).toBe('en');
  });

  it('is the active language without one', async () => {
    await i18n.changeLanguage('de');
    expect(formatLocale()).toBe('de');
    expect(formatLocale(undefined)).toBe('de');
  });
});

describe('absolute dates and times', () => {
  it.each([
    [
      'en',
      'Mar 5, 2026',
      'March 5, 2026',
      'Mar 5, 2026, 2:05 PM',
      'Mar 5, 2026, 2:05:09 PM',
      '2:05 PM',
      '2:05:09 PM',
    ],
    ['de', '05.03.2026', '5. März 2026', '05.03.2026, 14:05', '05.03.2026, 14:05:09', '14:05', '14:05:09'],
  ])('%s', (locale, date, longDate, dateTime, withSeconds, time, timeWithSeconds) => {
    expect(plain(formatDate(AT, locale, UTC))).toBe(date);
    expect(plain(formatDate(AT, locale, { ...UTC, style: 'long' }))).toBe(longDate);
    expect(plain(formatDateTime(AT, locale, UTC))).toBe(dateTime);
    expect(plain(formatDateTime(new Date(AT).toISOString(), locale, { ...UTC, timeStyle: 'medium' }))).toBe(
      withSeconds,
    );
    expect(plain(formatTime(AT, locale, UTC))).toBe(time);
    expect(plain(formatTime(AT, locale, { ...UTC, seconds: true }))).toBe(timeWithSeconds);
  });

  it('writes the fields asked for, and weekdays by number (0 Sunday)', () => {
    expect(formatDateFields(AT, 'de', { ...UTC, weekday: 'short', day: '2-digit', month: '2-digit' })).toBe(
      'Do., 05.03.',
    );
    expect(formatWeekday(1, 'en')).toBe('Monday');
    expect(formatWeekday(0, 'de')).toBe('Sonntag');
    expect(formatWeekday(1, 'de', 'short')).toBe('Mo');
  });

  it("shows the browser's time zone unless told otherwise", () => {
    const zone = userTimeZone();
    expect(zone).toBeTruthy();
    expect(formatDateTime(AT, 'en')).toBe(formatDateTime(AT, 'en', { timeZone: zone }));
    // A calendar day stays the same day wherever the reader is.
    expect(formatDate('2026-03-05T00:00:00Z', 'en', UTC)).toBe('Mar 5, 2026');
  });

  it('shows a dash for an absent or unreadable moment instead of throwing', () => {
    for (const value of [null, undefined, '', 'nonsense', Number.NaN]) {
      expect(formatDate(value, 'en')).toBe(NO_TIME);
      expect(formatDateTime(value, 'de')).toBe(NO_TIME);
      expect(formatTime(value, 'en')).toBe(NO_TIME);
      expect(formatRelativeTime(value, 'en', AT)).toBe(NO_TIME);
    }
  });

  it('follows the active language when none is given', async () => {
    await i18n.changeLanguage('de');
    expect(formatDate(AT, undefined, UTC)).toBe('05.03.2026');
    expect(formatters().locale).toBe('de');
  });

  it('builds each Intl format once per language and options', () => {
    expect(dateTimeFormat('en', { dateStyle: 'medium' })).toBe(dateTimeFormat('en', { dateStyle: 'medium' }));
    expect(dateTimeFormat('en', { dateStyle: 'medium' })).not.toBe(
      dateTimeFormat('de', { dateStyle: 'medium' }),
    );
    expect(formatters('de')).toBe(formatters('de-DE'));
  });
});

describe('formatRelativeTime', () => {
  const now = AT;
  // Each unit's first and last value (spec §9: floored, months of 30 days, years of 365).
  it.each([
    [0, '0 seconds ago', 'vor 0 Sekunden', 'in 0 seconds'],
    [59 * S + 999, '59 seconds ago', 'vor 59 Sekunden', 'in 59 seconds'],
    [M, '1 minute ago', 'vor 1 Minute', 'in 1 minute'],
    [59 * M + 59 * S, '59 minutes ago', 'vor 59 Minuten', 'in 59 minutes'],
    [H, '1 hour ago', 'vor 1 Stunde', 'in 1 hour'],
    [23 * H + 59 * M, '23 hours ago', 'vor 23 Stunden', 'in 23 hours'],
    [D, '1 day ago', 'vor 1 Tag', 'in 1 day'],
    [29 * D + 23 * H, '29 days ago', 'vor 29 Tagen', 'in 29 days'],
    [30 * D, '1 month ago', 'vor 1 Monat', 'in 1 month'],
    [364 * D, '12 months ago', 'vor 12 Monaten', 'in 12 months'],
    [365 * D, '1 year ago', 'vor 1 Jahr', 'in 1 year'],
    [3 * 365 * D + 10 * D, '3 years ago', 'vor 3 Jahren', 'in 3 years'],
  ])('%d ms → "%s", "%s", "%s"', (distance, pastEn, pastDe, futureEn) => {
    expect(formatRelativeTime(now - distance, 'en', now)).toBe(pastEn);
    expect(formatRelativeTime(new Date(now - distance).toISOString(), 'de', now)).toBe(pastDe);
    if (distance > 0) expect(formatRelativeTime(now + distance, 'en', now)).toBe(futureEn);
  });

  it('writes the future in German too', () => {
    expect(formatRelativeTime(now + 2 * D, 'de', now)).toBe('in 2 Tagen');
    expect(formatRelativeTime(now + 3 * 30 * D, 'de', now)).toBe('in 3 Monaten');
  });

  it('writes the number even for one day ("1 day ago", not "yesterday")', () => {
    expect(formatRelativeTime(now - D - H, 'en', now)).toBe('1 day ago');
    expect(formatRelativeTime(now + D, 'de', now)).toBe('in 1 Tag');
  });
});

describe('relativeTimeChangesIn', () => {
  const now = AT;
  const changes = (value: number) => {
    const wait = relativeTimeChangesIn(value, now);
    if (wait === null) throw new Error('no change');
    return {
      wait,
      before: formatRelativeTime(value, 'en', now + wait - 1),
      after: formatRelativeTime(value, 'en', now + wait),
    };
  };

  it.each([
    ['5 s ago', now - 5 * S, 1 * S],
    ['5 min 12 s ago', now - 5 * M - 12 * S, 48 * S],
    ['23 h 30 min ago', now - 23 * H - 30 * M, 30 * M],
    ['in 65 s', now + 65 * S, 5 * S + 1],
    ['in 10 s', now + 10 * S + 500, 501],
  ])('%s: the next whole unit', (_, value, wait) => {
    const next = changes(value);
    expect(next.wait).toBe(wait);
    expect(next.after).not.toBe(next.before);
  });

  it('turns 12 months into a year at 365 days', () => {
    const next = changes(now - 362 * D);
    expect(next.wait).toBe(Math.min(3 * D, H));
    expect(relativeTimeChangesIn(now - 364 * D - 23 * H, now)).toBe(H);
    expect(relativeTimeChangesIn(now - 364 * D - 23 * H - 59 * M - 30 * S, now)).toBe(30 * S);
  });

  it('waits at most an hour and at least 50 ms; an absent time never changes', () => {
    expect(relativeTimeChangesIn(now - 100 * D, now)).toBe(H);
    expect(relativeTimeChangesIn(now + 2 * M, now)).toBe(50);
    expect(relativeTimeChangesIn(null, now)).toBeNull();
    expect(relativeTimeChangesIn('nonsense', now)).toBeNull();
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s', '0 Sek.'],
    [500, '0s', '0 Sek.'],
    [4 * S, '4s', '4 Sek.'],
    [M + 5 * S, '1m 5s', '1 Min. 5 Sek.'],
    [H + 5 * M, '1h 5m 0s', '1 Std. 5 Min. 0 Sek.'],
    [H + 5 * S, '1h 0m 5s', '1 Std. 0 Min. 5 Sek.'],
    [D + 2 * H + 3 * M + 4 * S, '1d 2h 3m 4s', '1 Tg. 2 Std. 3 Min. 4 Sek.'],
    [1234 * D, '1,234d 0h 0m 0s', '1.234 Tg. 0 Std. 0 Min. 0 Sek.'],
    [-5 * S, '0s', '0 Sek.'],
    [Number.NaN, '0s', '0 Sek.'],
  ])('short: %d ms → "%s", "%s"', (ms, en, de) => {
    expect(plain(formatDuration(ms, 'en'))).toBe(en);
    expect(plain(formatDuration(ms, 'de'))).toBe(de);
  });

  it.each([
    [0, {}, '0 seconds', '0 Sekunden'],
    [H, {}, '1 hour', '1 Stunde'],
    [15 * M, {}, '15 minutes', '15 Minuten'],
    [7 * D, {}, '7 days', '7 Tage'],
    [2 * H + 5 * M, {}, '2 hours, 5 minutes', '2 Stunden, 5 Minuten'],
    [D + 2 * H + 3 * M, {}, '1 day, 2 hours, 3 minutes', '1 Tag, 2 Stunden und 3 Minuten'],
    [
      3 * D + 4 * H + 59 * S,
      { maxUnits: 2, smallestUnit: 'minutes' },
      '3 days, 4 hours',
      '3 Tage, 4 Stunden',
    ],
    [3 * D + 5 * M, { maxUnits: 2, smallestUnit: 'minutes' }, '3 days', '3 Tage'],
    [2 * M + 30 * S, { maxUnits: 2, smallestUnit: 'minutes' }, '2 minutes', '2 Minuten'],
    [40 * S, { maxUnits: 2, smallestUnit: 'minutes' }, '40 seconds', '40 Sekunden'],
    [0, { smallestUnit: 'minutes' }, '0 seconds', '0 Sekunden'],
  ] as const)('long: %d ms %o → "%s", "%s"', (ms, options, en, de) => {
    expect(plain(formatDuration(ms, 'en', { style: 'long', ...options }))).toBe(en);
    expect(plain(formatDuration(ms, 'de', { style: 'long', ...options }))).toBe(de);
  });
});

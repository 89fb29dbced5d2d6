import { formatDate, formatDateTime } from '../../../lib/format-time';

/** A whole day in milliseconds. */
const DAY_MS = 86_400_000;

/** An amount in cents as money in the language's way: "€1,234.00" in English, "1.234,00 €" in German. */
export function formatMoney(cents: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
}

/** A day in the language's medium format ("Mar 5, 2026", "05.03.2026"). */
export function formatDay(at: string | number, locale: string): string {
  return formatDate(at, locale);
}

/** A moment in the language's medium date and short time format. */
export { formatDateTime };

/** Whole days left until `end` (0 once it has passed; a part of a day counts as a day). */
export function daysLeft(end: string, now: number = Date.now()): number {
  return Math.max(0, Math.ceil((Date.parse(end) - now) / DAY_MS));
}

/** `part` of `whole` in per cent, rounded; 0 when there is no whole. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

/** A calendar day (`2026-03-05`, or its midnight in UTC as a number) in the language's medium format. */
export function formatCalendarDay(day: string | number, locale: string): string {
  return formatDate(typeof day === 'number' ? day : `${day}T00:00:00Z`, locale, { timeZone: 'UTC' });
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** A card brand as people write it ("visa" from the provider is "Visa"). */
export function cardBrand(brand: string): string {
  return BRANDS[brand.toLowerCase()] ?? (brand ? brand[0].toUpperCase() + brand.slice(1) : brand);
}

const BIT_UNITS = ['bit', 'kilobit', 'megabit', 'gigabit'] as const;

/**
 * Bytes per second as bits per second in the largest fitting unit, as Intl writes it in the locale: "12.5 Mb/s".
 * One formatter for every screen that shows a rate (a gateway's load, a site's performance).
 */
export function formatThroughput(bytesPerSecond: number, locale: string): string {
  let value = Math.max(0, bytesPerSecond) * 8;
  let index = 0;
  while (value >= 1000 && index < BIT_UNITS.length - 1) {
    value /= 1000;
    index += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: `${BIT_UNITS[index]}-per-second`,
    unitDisplay: 'short',
    maximumSignificantDigits: 3,
  }).format(value);
}

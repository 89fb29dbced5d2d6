const UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/**
 * A byte count of 1000 or more in the largest fitting decimal unit, as Intl writes it in the locale ("1.5 MB",
 * "1,5 MB"); undefined below 1000, where the caller writes the count in words ("512 bytes").
 */
export function formatLargeBytes(bytes: number, locale: string): string | undefined {
  if (!Number.isFinite(bytes) || bytes < 1000) return undefined;
  let value = bytes / 1000;
  let index = 0;
  while (value >= 1000 && index < UNITS.length - 1) {
    value /= 1000;
    index += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: UNITS[index],
    unitDisplay: 'short',
    maximumSignificantDigits: 3,
  }).format(value);
}

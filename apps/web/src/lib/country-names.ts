/**
 * A function naming a country by its ISO code in `locale` (Intl's region names), falling back to the name the
 * GeoIP database gives (English) or the code itself.
 */
export function countryNamer(
  locale: string,
  fallback: ReadonlyMap<string, string>,
): (code: string) => string {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([locale], { type: 'region' });
  } catch {
    // Without Intl region names (old engines) the database's names are used.
  }
  return (code) => {
    try {
      const name = names?.of(code);
      if (name && name !== code) return name;
    } catch {
      // A code Intl does not accept: fall through.
    }
    return fallback.get(code) ?? code;
  };
}

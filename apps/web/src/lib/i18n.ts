/**
 * Translations (spec §1, §7, §8): i18next with the HTTP backend loading `/locales/{lng}/{ns}.json`, en (default)
 * and de, four namespaces. The backend marks 5xx and status-less failures retryable and 4xx final; i18next
 * does the retrying, so we only set how often.
 */
import {
  DEFAULT_LOCALE,
  I18N_INITIAL_NAMESPACES,
  LANGUAGE_COOKIE,
  LOCALES,
  type Locale,
  RETRIES,
} from '@palisade/contracts';
import i18next from 'i18next';
import HttpBackend, { type HttpBackendOptions } from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';

/** The storage key that keeps the chosen language (the name i18next's own detector uses). */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/** Language names shown in the switcher, each in its own language. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', de: 'Deutsch' };

/** The app's i18next instance; `useTranslation()` finds it through `initReactI18next`. */
export const i18n = i18next.createInstance();
i18n.use(initReactI18next);

/** Narrows any string to a supported locale, or null. `de-AT` counts as `de`. */
export function toLocale(value: string | null | undefined): Locale | null {
  const base = value?.toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(base ?? '') ? (base as Locale) : null;
}

/** The language to start in: `?lng=` in the address, else the stored choice, else en. */
export function detectLanguage(search = window.location.search): Locale {
  const fromQuery = toLocale(new URLSearchParams(search).get('lng'));
  if (fromQuery) return fromQuery;
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage can be blocked (privacy settings); the default language then applies.
  }
  return toLocale(stored) ?? DEFAULT_LOCALE;
}

/** The active language as a supported locale. */
export function currentLocale(): Locale {
  return toLocale(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LOCALE;
}

/** `n` with the digits and grouping of the active language: 1,234 in English, 1.234 in German. */
export function formatNumber(n: number, locale: string = currentLocale()): string {
  return new Intl.NumberFormat(locale).format(n);
}

/**
 * Keeps the chosen language: in local storage for the app, and in a cookie for the server, which names that
 * language's catalogues in index.html so the browser fetches them alongside the scripts.
 */
export function persistLanguage(locale: Locale): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch {
    // Not persisted when storage is blocked; the language still applies to this page.
  }
  // biome-ignore lint/suspicious/noDocumentCookie: one synchronous write; the Cookie Store API is not in every browser yet.
  document.cookie = `${LANGUAGE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
}

/** Keeps `<html lang>` and the stored choice in step with the active language. */
function handleLanguageChanged(lng: string): void {
  const locale = toLocale(lng) ?? DEFAULT_LOCALE;
  document.documentElement.lang = locale;
  document.documentElement.dir = i18n.dir(locale);
  persistLanguage(locale);
}

/** Starts i18next with the HTTP backend; components suspend until the first namespaces have loaded. */
export function initI18n(): Promise<unknown> {
  i18n.on('languageChanged', handleLanguageChanged);
  return i18n.use(HttpBackend).init<HttpBackendOptions>({
    lng: detectLanguage(),
    // Every catalogue holds every key (locales.test.ts), so a language needs no other behind it: German
    // visitors fetch the German catalogues only, not the English ones as well.
    fallbackLng: { ...Object.fromEntries(LOCALES.map((locale) => [locale, []])), default: [DEFAULT_LOCALE] },
    supportedLngs: [...LOCALES],
    load: 'languageOnly',
    // The namespaces of the first screen; the others load when a screen asks for them.
    ns: [...I18N_INITIAL_NAMESPACES],
    defaultNS: 'translation',
    maxRetries: RETRIES,
    interpolation: { escapeValue: false },
    backend: { loadPath: '/locales/{{lng}}/{{ns}}.json', reloadInterval: false },
    react: { useSuspense: true },
  });
}

/** Switches the language (the user's saved choice is written by the caller). */
export function changeLanguage(locale: Locale): Promise<unknown> {
  return i18n.changeLanguage(locale);
}

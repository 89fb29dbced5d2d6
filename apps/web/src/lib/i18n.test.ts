import { afterEach, describe, expect, it } from 'vitest';
import { detectLanguage, LANGUAGE_STORAGE_KEY, persistLanguage, toLocale } from './i18n';

describe('toLocale', () => {
  it('accepts the two supported languages, with or without a region', () => {
    expect(toLocale('en')).toBe('en');
    expect(toLocale('de-AT')).toBe('de');
    expect(toLocale('DE_de')).toBe('de');
  });

  it('rejects anything else', () => {
    expect(toLocale('fr')).toBeNull();
    expect(toLocale('')).toBeNull();
    expect(toLocale(null)).toBeNull();
  });
});

describe('detectLanguage', () => {
  afterEach(() => {
    localStorage.clear();
  });

  it('defaults to English', () => {
    expect(detectLanguage('')).toBe('en');
  });

  it('keeps the stored choice', () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'de');
    expect(detectLanguage('')).toBe('de');
  });

  it('lets ?lng= in the address win over the stored choice', () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    expect(detectLanguage('?lng=de')).toBe('de');
  });

  it('ignores an unsupported ?lng=', () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'de');
    expect(detectLanguage('?lng=xx')).toBe('de');
  });
});

describe('persistLanguage', () => {
  afterEach(() => {
    localStorage.clear();
    // biome-ignore lint/suspicious/noDocumentCookie: removes what the code under test wrote, the same way.
    document.cookie = 'i18nextLng=; path=/; max-age=0';
  });

  it('keeps the choice for the app and, in a cookie, for the server that preloads its catalogues', () => {
    persistLanguage('de');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('de');
    expect(document.cookie).toContain('i18nextLng=de');
    expect(detectLanguage('')).toBe('de');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { detectLanguage, LANGUAGE_STORAGE_KEY, toLocale } from './i18n';

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

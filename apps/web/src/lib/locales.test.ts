import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

/** The translation catalogues as served (`public/locales/{lng}/{ns}.json`). */
const LOCALES_DIR = join(__dirname, '../../public/locales');
const SRC_DIR = join(__dirname, '..');
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

type Catalogue = { [key: string]: string | Catalogue };

function load(lng: string, ns: string): Catalogue {
  return JSON.parse(readFileSync(join(LOCALES_DIR, lng, ns), 'utf8'));
}

/** Every leaf of a catalogue as `a.b.c` → text. */
function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const namespaces = readdirSync(join(LOCALES_DIR, 'en'));

describe('translation catalogues', () => {
  it.each(namespaces)('%s: German has every English key, none empty, with the same placeholders', (ns) => {
    const en = flatten(load('en', ns));
    const de = flatten(load('de', ns));
    expect([...de.keys()].filter((key) => !en.has(key))).toEqual([]);
    expect([...en.keys()].filter((key) => !de.has(key))).toEqual([]);
    const empty = [...de].filter(([, text]) => text.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
    const mismatched = [...en]
      .filter(([key, text]) => placeholders(text).join() !== placeholders(de.get(key) ?? '').join())
      .map(([key]) => key);
    expect(mismatched).toEqual([]);
  });

  it('holds every key the code asks for by name, so no screen falls back to its English default', () => {
    const en = flatten(load('en', 'translation.json'));
    const known = new Set([...en.keys()].flatMap((key) => [key, key.replace(PLURAL_SUFFIX, '')]));
    const missing: string[] = [];
    let asked = 0;
    for (const file of sourceFiles(SRC_DIR)) {
      const text = readFileSync(file, 'utf8');
      const keys = [
        ...text.matchAll(/(?<![\w.])t\(\s*['"]([\w.]+)['"]/g),
        ...text.matchAll(/i18nKey="([\w.]+)"/g),
      ].map((m) => m[1]);
      asked += keys.length;
      for (const key of keys) if (!known.has(key)) missing.push(`${relative(SRC_DIR, file)}: ${key}`);
    }
    expect(asked).toBeGreaterThan(1000);
    expect(missing).toEqual([]);
  });

  it.each(['en', 'de'])('%s: writes every count as a number of its language, never bare', (lng) => {
    const bare = [...flatten(load(lng, 'translation.json'))]
      .filter(([, text]) => /\{\{\s*count\s*\}\}/.test(text))
      .map(([key]) => key);
    expect(bare).toEqual([]);
  });
});

describe('numbers in the catalogues', () => {
  it('group thousands as the language does: 1,234 in English, 1.234 in German', async () => {
    const instance = i18next.createInstance();
    await instance.init({
      lng: 'de',
      resources: {
        en: { translation: load('en', 'translation.json') },
        de: { translation: load('de', 'translation.json') },
      },
      interpolation: { escapeValue: false },
    });
    expect(instance.t('users.list.total', { count: 1234 })).toBe('1.234 Benutzer');
    expect(instance.t('common.pagination.range', { from: 1001, to: 1025, total: 25000 })).toBe(
      '1.001–1.025 von 25.000',
    );
    await instance.changeLanguage('en');
    expect(instance.t('users.list.total', { count: 1234 })).toBe('1,234 users');
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config';
import { APP_CATALOG } from './app-catalog';
import { SHIPPED_CATEGORIES } from './categories';
import { BUILTIN_FEEDS } from './feeds';

/**
 * The web app shows shipped categories and built-in feeds by their id in the reader's language
 * (`catalog.categories.<id>`, `catalog.feeds.<id>`), so the catalogues must name every one of them, and the
 * English text must be the one the server sends (API clients and CSV exports read that).
 */
const { localesDir } = loadConfig({});
const catalogue = (lng: string) =>
  JSON.parse(readFileSync(join(localesDir, lng, 'translation.json'), 'utf8')).catalog;

describe('translations of the shipped catalog', () => {
  it('name and describe every shipped category in English as the server does, and in German', () => {
    const en = catalogue('en');
    const de = catalogue('de');
    for (const category of SHIPPED_CATEGORIES) {
      expect(en.categories[category.id], category.id).toEqual({
        name: category.name,
        description: category.description,
      });
      expect(de.categories[category.id]?.name, category.id).toBeTruthy();
      expect(de.categories[category.id]?.description, category.id).toBeTruthy();
    }
    expect(Object.keys(en.categories).sort()).toEqual(SHIPPED_CATEGORIES.map((c) => c.id).sort());
  });

  it('name every built-in feed in English as the server does, and in German', () => {
    const en = catalogue('en');
    const de = catalogue('de');
    for (const feed of BUILTIN_FEEDS) {
      expect(en.feeds[feed.id], feed.id).toEqual({ name: feed.name });
      expect(de.feeds[feed.id]?.name, feed.id).toBeTruthy();
    }
    expect(Object.keys(en.feeds).sort()).toEqual(BUILTIN_FEEDS.map((f) => f.id).sort());
  });

  it("name every category of the app catalogue, and the custom apps' default one, in English and German", () => {
    const en = catalogue('en');
    const de = catalogue('de');
    const used = [...new Set([...APP_CATALOG.map((app) => app.category), 'custom'])].sort();
    for (const category of used) {
      expect(en.appCategories?.[category], category).toBeTruthy();
      expect(de.appCategories?.[category], category).toBeTruthy();
    }
    expect(Object.keys(en.appCategories).sort()).toEqual(used);
  });
});

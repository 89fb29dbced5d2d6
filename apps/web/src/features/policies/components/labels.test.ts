import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import de from '../../../../public/locales/de/translation.json';
import en from '../../../../public/locales/en/translation.json';
import { catalogDescription, catalogName, ruleDisplayName } from './labels';

const CUSTOM_ID = '7d4a9c52-1f0e-4a55-9a43-2c0e6f1b8a10';
let tEn: TFunction;
let tDe: TFunction;

beforeAll(async () => {
  const make = async (lng: string, translation: object) => {
    const instance = i18next.createInstance();
    await instance.init({
      lng,
      resources: { [lng]: { translation } },
      interpolation: { escapeValue: false },
    });
    return instance.t;
  };
  tEn = await make('en', en);
  tDe = await make('de', de);
});

describe('names of the shipped catalog', () => {
  it('shows shipped categories and built-in feeds in the reader’s language', () => {
    expect(catalogName(tDe, 'category', 'gambling', 'Gambling')).toBe('Glücksspiel');
    expect(catalogDescription(tDe, 'gambling', 'Online betting, casinos, poker and lotteries.')).toBe(
      'Online-Wetten, Casinos, Poker und Lotterien.',
    );
    expect(catalogName(tDe, 'feed', 'builtin-bogons', 'Bogon networks')).toBe('Bogon-Netze');
    expect(catalogName(tEn, 'category', 'gambling', 'Gambling')).toBe('Gambling');
  });

  it('keeps the names an administrator gave their own categories and feeds', () => {
    expect(catalogName(tDe, 'category', CUSTOM_ID, 'Partner sites')).toBe('Partner sites');
    expect(catalogDescription(tDe, CUSTOM_ID, 'Our partners')).toBe('Our partners');
    expect(catalogName(tDe, 'feed', CUSTOM_ID, 'Abuse list')).toBe('Abuse list');
  });
});

describe('ruleDisplayName', () => {
  const rule = (ruleId: string, ruleName: string) => ({ ruleId, ruleName });

  it('translates the system rules the object screens derive, with the translated object name', () => {
    expect(ruleDisplayName(tDe, rule('system-category-gambling', 'Category: Gambling'))).toBe(
      'Kategorie: Glücksspiel',
    );
    expect(ruleDisplayName(tDe, rule(`system-category-${CUSTOM_ID}`, 'Category: Partner sites'))).toBe(
      'Kategorie: Partner sites',
    );
    expect(
      ruleDisplayName(tDe, rule('system-threat-intel-builtin-bogons-ips', 'IP rule: Bogon networks')),
    ).toBe('IP-Regel: Bogon-Netze');
    expect(
      ruleDisplayName(
        tDe,
        rule('system-threat-intel-builtin-test-indicators-domains', 'Threat intel: Palisade test indicators'),
      ),
    ).toBe('Bedrohungsdaten: Palisade-Testindikatoren');
    expect(ruleDisplayName(tDe, rule('system-blocked-apps', 'Blocked apps'))).toBe('Gesperrte Apps');
    expect(ruleDisplayName(tDe, rule('system-default-geo', 'Default geo rule'))).toBe('Standard-Geo-Regel');
    expect(ruleDisplayName(tEn, rule('system-category-gambling', 'Category: Gambling'))).toBe(
      'Category: Gambling',
    );
  });

  it('leaves every other rule as it was named, even one that looks like a system rule', () => {
    expect(ruleDisplayName(tDe, rule('r1', 'Category: Gambling'))).toBe('Category: Gambling');
    expect(ruleDisplayName(tDe, rule('r2', 'Block casinos'))).toBe('Block casinos');
  });
});

import type { TraceStep } from '@palisade/contracts';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import de from '../../../../public/locales/de/translation.json';
import en from '../../../../public/locales/en/translation.json';
import { appCategoryName } from '../../../lib/policy-names';
import { traceStepValues } from '../simulator/trace-values';
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

describe('app categories', () => {
  it('names the app catalogue’s categories in the reader’s language and keeps hand-typed ones', () => {
    expect(appCategoryName(tDe, 'social-networking')).toBe('Soziale Netzwerke');
    expect(appCategoryName(tEn, 'social-networking')).toBe('Social networking');
    expect(appCategoryName(tDe, 'custom')).toBe('Eigene');
    expect(appCategoryName(tDe, 'Our tools')).toBe('Our tools');
  });
});

describe('values of the simulator trace', () => {
  const names = {
    category: (name: string) => (name === 'Gambling' ? catalogName(tDe, 'category', 'gambling', name) : name),
    feed: (name: string) => name,
    country: (code: string) => (code === 'MT' ? 'Malta' : code),
    locale: 'de',
  };
  const step = (values: Record<string, string>, over: Partial<TraceStep> = {}): TraceStep => ({
    layer: 'dns',
    rule: null,
    outcome: 'no-match',
    reason: 'policy.trace.matched',
    values,
    ...over,
  });

  it('names where a matched entry came from, the rule that decided earlier, countries, QoS and times', () => {
    const winner = step(
      { item: 'casino.example (category:Gambling)', action: 'block', target: '' },
      {
        outcome: 'matched',
        rule: {
          policyId: 'system-threat-intel',
          policyName: 'system:threatIntel',
          ruleId: 'system-category-gambling',
          ruleName: 'Category: Gambling',
          type: 'dmn',
          action: 'block',
          system: true,
        },
      },
    );
    const later = step({ rule: 'Category: Gambling' }, { outcome: 'skipped' });
    const trace = [winner, later];
    expect(traceStepValues(tDe, winner, trace, names).item).toBe(
      'casino.example (Webkategorie: Glücksspiel)',
    );
    expect(traceStepValues(tDe, later, trace, names).rule).toBe('Kategorie: Glücksspiel');
    expect(traceStepValues(tDe, step({ country: 'MT' }), trace, names).country).toBe('Malta');
    expect(
      traceStepValues(tDe, step({ qos: '00000000-0000-0000-0000-000000000000' }), trace, names).qos,
    ).toBe('Standard');
    expect(traceStepValues(tDe, step({ time: '2026-11-23T07:30:00.000Z' }), trace, names).time).toMatch(
      /^23\.11\.2026, 07:30 UTC$/,
    );
    // What needs no naming stays as the engine sent it.
    expect(traceStepValues(tDe, step({ host: 'a.example' }), trace, names)).toEqual({ host: 'a.example' });
  });
});

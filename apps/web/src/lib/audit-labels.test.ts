import {
  Admin,
  ApiToken,
  App,
  AUDIT_ACTIONS,
  AUDIT_AREAS,
  AUDIT_OBJECT_TYPES,
  CustomRole,
  DeploymentKey,
  Device,
  ERRORS,
  Feed,
  Group,
  Location,
  Policy,
  PolicyGroup,
  PolicyTest,
  SimulationRequest,
  Tenant,
  User,
  WebCategory,
} from '@palisade/contracts';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import de from '../../public/locales/de/translation.json';
import en from '../../public/locales/en/translation.json';
import {
  auditActionLabel,
  auditAreaLabel,
  auditFieldLabel,
  auditObjectName,
  auditObjectTypeLabel,
} from './audit-labels';

type Catalogue = { [key: string]: string | Catalogue };

/** The text at a dotted key of a catalogue, or undefined when it is missing or not a text. */
function textAt(catalogue: Catalogue, key: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' && node.trim() !== '' ? node : undefined;
}

const CATALOGUES = { en: en as Catalogue, de: de as Catalogue };
const unlabelled = (keys: string[]) =>
  Object.entries(CATALOGUES).flatMap(([lng, catalogue]) =>
    keys.filter((key) => textAt(catalogue, key) === undefined).map((key) => `${lng}: ${key}`),
  );

/** The fields of every shape the server logs as an object's before/after (its presenters'). */
const LOGGED_SHAPES = {
  Admin,
  ApiToken,
  App,
  CustomRole,
  DeploymentKey,
  Device,
  Feed,
  Group,
  Location,
  Policy,
  PolicyGroup,
  PolicyTest,
  SimulationRequest,
  Tenant,
  User,
  WebCategory,
};
/** Fields the view leaves out (they repeat the event's object). */
const UNSHOWN_FIELDS = new Set(['id', 'userid']);

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

describe('the audit and error constants of the contracts', () => {
  it('have an English and a German label each', () => {
    expect(unlabelled(AUDIT_ACTIONS.map((action) => `audit.actions.${action}`))).toEqual([]);
    expect(unlabelled(AUDIT_OBJECT_TYPES.map((type) => `audit.objectTypes.${type}`))).toEqual([]);
    expect(unlabelled(AUDIT_AREAS.map((area) => `audit.areas.${area}`))).toEqual([]);
    expect(unlabelled(Object.values(ERRORS).map((error) => `error.${error.errcode}`))).toEqual([]);
    expect(
      unlabelled(['audit.counts.user_one', 'audit.counts.user_other', 'audit.counts.group_other']),
    ).toEqual([]);
  });

  it('label every field of the objects the log records', () => {
    const fields = Object.values(LOGGED_SHAPES).flatMap((shape) => Object.keys(shape.shape));
    const shown = [...new Set(fields)].filter((field) => !UNSHOWN_FIELDS.has(field));
    expect(shown.length).toBeGreaterThan(80);
    expect(unlabelled(shown.map((field) => `audit.fields.${field}`))).toEqual([]);
  });
});

describe('audit labels', () => {
  it('name actions, object types and areas in the reader’s language, unknown ones as recorded', () => {
    expect(auditActionLabel(tEn, 'policy.create')).toBe('Policy created');
    expect(auditActionLabel(tDe, 'policy.create')).toBe('Richtlinie erstellt');
    expect(auditActionLabel(tEn, 'user.bulk.disableInternetAccess')).toBe(
      'Internet access turned off for users',
    );
    expect(auditActionLabel(tDe, 'user.bulk.disableInternetAccess')).toBe(
      'Internetzugriff für Benutzer ausgeschaltet',
    );
    expect(auditActionLabel(tDe, 'custom.thing')).toBe('custom.thing');
    // A recorded string that only looks like a part of the catalogue is not turned into text.
    expect(auditActionLabel(tEn, 'user.bulk')).toBe('user.bulk');

    expect(auditObjectTypeLabel(tEn, 'deployment_key')).toBe('Deployment key');
    expect(auditObjectTypeLabel(tDe, 'deployment_key')).toBe('Verteilungsschlüssel');
    expect(auditObjectTypeLabel(tDe, 'bulk')).toBe('bulk');
    expect(auditAreaLabel(tEn, 'policyGroup')).toBe('Policy groups');
    expect(auditAreaLabel(tDe, 'user')).toBe('Benutzer');
    expect(auditAreaLabel(tDe, 'custom')).toBe('custom.*');
    expect(auditFieldLabel(tEn, 'fullname')).toBe('Full name');
    expect(auditFieldLabel(tDe, 'updatedAt')).toBe('Zuletzt geändert');
    expect(auditFieldLabel(tDe, 'somethingNew')).toBe('somethingNew');
  });

  it('counts the users or groups of bulk changes and imports with the language’s plurals', () => {
    const bulk = (objectName: string) => ({
      action: 'user.bulk.enableXdr',
      objectType: 'user',
      objectId: 'j1',
      objectName,
    });
    expect(auditObjectName(tEn, bulk('1 user'))).toBe('1 user');
    expect(auditObjectName(tEn, bulk('2 users'))).toBe('2 users');
    // Events written before the count was worded right.
    expect(auditObjectName(tEn, bulk('1 users'))).toBe('1 user');
    expect(auditObjectName(tDe, bulk('2 users'))).toBe('2 Benutzer');
    const imported = { action: 'group.import', objectType: 'import', objectId: 'j2', objectName: '1 groups' };
    expect(auditObjectName(tEn, imported)).toBe('1 group');
    expect(auditObjectName(tDe, { ...imported, objectName: '3 groups' })).toBe('3 Gruppen');
    // Any other event keeps its object's name, even one that starts with a number.
    const user = { action: 'user.create', objectType: 'user', objectId: 'u1', objectName: '2 users' };
    expect(auditObjectName(tDe, user)).toBe('2 users');
  });

  it('translates shipped objects and lists by their ids, and keeps what administrators named', () => {
    const category = { action: 'policy.category.action', objectType: 'category', objectName: 'Gambling' };
    expect(auditObjectName(tDe, { ...category, objectId: 'gambling' })).toBe('Glücksspiel');
    expect(auditObjectName(tDe, { ...category, objectId: 'f1e3', objectName: 'Partner sites' })).toBe(
      'Partner sites',
    );
    const list = { action: 'policy.reorder', objectType: 'policyList', objectId: 'qos', objectName: 'qos' };
    expect(auditObjectName(tEn, list)).toBe('QoS policies');
    expect(auditObjectName(tDe, list)).toBe('QoS-Richtlinien');
  });
});

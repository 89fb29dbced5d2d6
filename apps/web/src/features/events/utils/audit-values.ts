import { ROLES, type Role, type RuleAction, type RuleType } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { auditActionLabel, auditFieldLabel } from '../../../lib/audit-labels';
import { formatDateTime, toTimestamp } from '../../../lib/format-time';
import { formatNumber } from '../../../lib/i18n';
import { catalogName } from '../../../lib/policy-names';
import { roleLabel } from '../../../lib/role-names';
import { ruleSummary } from '../../../lib/rule-summary';

// How the before/after view shows a recorded value: in words, with the screens' names for codes and for the
// objects an id refers to, never as JSON.

/** The kinds of object an event refers to by id, and how each is looked up. */
export type NameKind = 'group' | 'user' | 'app' | 'category' | 'feed' | 'location';

/** Names of referred objects by id, as far as they are known; an unknown id shows as it is. */
export type AuditNames = Partial<Record<NameKind, (id: string) => string | undefined>>;

/** What the view shows for one value. */
export type AuditDisplay =
  | { kind: 'none' }
  | { kind: 'text'; text: string; isCode?: boolean }
  /** Names inline, rules one per line, a reordered list numbered; `more` counts the items left out. */
  | { kind: 'list'; items: string[]; more: number; layout: 'inline' | 'lines' | 'ordered' }
  | { kind: 'fields'; entries: Array<{ field: string; label: string; value: AuditDisplay }> };

/** What a value is shown with: the event it belongs to, the reader's language and the names known. */
export interface AuditValueContext {
  t: TFunction;
  locale: string;
  action: string;
  objectType: string;
  names?: AuditNames;
}

/** The most items a list shows; the rest is counted ("and 975 more"). */
export const MAX_LIST_ITEMS = 50;

/** What the server writes in place of a secret (events.repository redact). */
const REDACTED = '[redacted]';
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ROLE_SET: ReadonlySet<string> = new Set(ROLES);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Fields that only repeat what the event's header says, or an id next to the name it stands for: left out of
 * the view (they stay in the export).
 */
export function isHiddenField(field: string, sides: unknown[]): boolean {
  if (field === 'id' || field === 'userid') return true;
  const hasSibling = (name: string) => sides.some((side) => isRecord(side) && name in side);
  if (field === 'userId') return hasSibling('username');
  if (field === 'customRoleId') return hasSibling('customRoleName');
  return false;
}

/** The name of an object given as `{ id, name }` (or `{ username }`), when it carries one. */
function nameOf(value: Record<string, unknown>): string | undefined {
  for (const key of ['name', 'username', 'appname']) {
    if (typeof value[key] === 'string' && value[key] !== '') return value[key] as string;
  }
  return undefined;
}

/** Which kind of object a field names by id, when it does (in any event). */
function referenceKind(field: string): NameKind | undefined {
  switch (field) {
    case 'groups':
    case 'groupId':
    case 'group':
    case 'autoGroups':
    case 'addedToGroups':
      return 'group';
    case 'userId':
      return 'user';
    case 'appids':
      return 'app';
    case 'categories':
      return 'category';
    case 'feeds':
      return 'feed';
    case 'locations':
      return 'location';
    default:
      return undefined;
  }
}

/** A referred object's name: looked up, else a shipped category or feed by its catalogue name, else the id. */
function referenceName(
  kind: NameKind,
  id: string,
  ctx: AuditValueContext,
): { text: string; isCode: boolean } {
  const found = ctx.names?.[kind]?.(id);
  if (kind === 'category' || kind === 'feed') {
    const name = catalogName(ctx.t, kind, id, found ?? id);
    return { text: name, isCode: name === id && UUID.test(id) };
  }
  return found ? { text: found, isCode: false } : { text: id, isCode: UUID.test(id) };
}

/** Codes that the screens show in words, by field. */
function codeLabel(field: string, value: string, ctx: AuditValueContext): string | undefined {
  const { t } = ctx;
  const known = (key: string) => {
    const text = t(key, { defaultValue: '' });
    return text === '' ? undefined : text;
  };
  switch (field) {
    case 'connstatus':
      return known(`users.connstatus.${value}`);
    case 'role':
      return ROLE_SET.has(value) ? roleLabel(t, value as Role, null) : undefined;
    case 'os':
      return known(`devices.os.${value}`);
    case 'enrolledVia':
      return known(`devices.method.${value}`);
    case 'mode':
      return value === 'all'
        ? t('common.csvImport.modeAll', 'All or nothing')
        : value === 'valid'
          ? t('common.csvImport.modeValid', 'Import valid rows, report the rest')
          : undefined;
    case 'expect':
    case 'actual':
      return known(`policies.decisions.${value}`);
    case 'status':
      return ctx.objectType === 'user' && ctx.action.startsWith('admin.')
        ? known(`admins.status.${value}`)
        : known(`audit.jobStatus.${value}`);
    case 'type':
      return ctx.objectType === 'policy' ? known(`policies.types.${value}`) : undefined;
    case 'action':
      if (ctx.action.startsWith('user.bulk.')) return auditActionLabel(t, `user.bulk.${value}`);
      if (ctx.objectType === 'category') return known(`policyObjects.categories.action.${value}`);
      return undefined;
    default:
      return undefined;
  }
}

/**
 * A field's label in the view: as the screens name it; a reordered list (recorded as a bare list, shown as the
 * field `value`) is its order.
 */
export function auditDiffFieldLabel(t: TFunction, field: string, objectType: string): string {
  if (field === 'value' && objectType === 'policyList') return t('audit.fields.order', 'Order');
  return auditFieldLabel(t, field);
}

/** `users:view` as "Users: View". */
function permissionLabel(t: TFunction, permission: string): string {
  const [module, action] = permission.split(':');
  if (!module || !action) return permission;
  const moduleLabel = t(`roles.modules.${module}`, { defaultValue: module });
  const actionLabel = t(`roles.actions.${action}`, { defaultValue: action });
  return `${moduleLabel}: ${actionLabel}`;
}

function list(items: string[], layout: 'inline' | 'lines' | 'ordered' = 'inline'): AuditDisplay {
  if (items.length === 0) return { kind: 'none' };
  const more = layout === 'ordered' ? 0 : Math.max(0, items.length - MAX_LIST_ITEMS);
  return { kind: 'list', items: more > 0 ? items.slice(0, MAX_LIST_ITEMS) : items, more, layout };
}

/** A recorded rule (the policy presenter's shape), as far as a summary needs it. */
function isRule(value: unknown): value is {
  id?: string;
  name: string;
  type: RuleType;
  url: string;
  action: RuleAction;
  categories: string[];
  feeds: string[];
  enabled: boolean;
} {
  return (
    isRecord(value) && typeof value.name === 'string' && typeof value.type === 'string' && 'url' in value
  );
}

/** One value of a field, in words. */
export function displayAuditValue(field: string, value: unknown, ctx: AuditValueContext): AuditDisplay {
  const { t } = ctx;
  if (value === null || value === undefined || value === '') return { kind: 'none' };
  if (value === REDACTED) return { kind: 'text', text: t('audit.values.redacted', 'hidden') };
  if (typeof value === 'boolean') {
    return { kind: 'text', text: value ? t('audit.values.yes', 'Yes') : t('audit.values.no', 'No') };
  }
  if (typeof value === 'number') {
    // Account kinds are numbers (ARCHITECTURE §6: 0 end user … 3 service account).
    const kindLabel = field === 'usertype' ? t(`audit.userKinds.${value}`, { defaultValue: '' }) : '';
    return { kind: 'text', text: kindLabel || formatNumber(value, ctx.locale) };
  }

  const kind = referenceKind(field);
  if (typeof value === 'string') {
    if (kind) return { kind: 'text', ...referenceName(kind, value, ctx) };
    const label = codeLabel(field, value, ctx);
    if (label) return { kind: 'text', text: label };
    if (ISO_TIME.test(value)) {
      return { kind: 'text', text: toTimestamp(value) === null ? value : formatDateTime(value, ctx.locale) };
    }
    return { kind: 'text', text: value };
  }

  if (Array.isArray(value)) {
    if (field === 'rules') {
      const names = {
        app: ctx.names?.app,
        category: (id: string) => referenceName('category', id, ctx).text,
        feed: (id: string) => referenceName('feed', id, ctx).text,
      };
      return list(
        value.map((rule) => (isRule(rule) ? ruleSummary(t, rule, names) : JSON.stringify(rule))),
        'lines',
      );
    }
    if (field === 'permissions') return list(value.map((p) => permissionLabel(t, String(p))));
    return list(
      value.map((item) => {
        if (typeof item === 'string') return kind ? referenceName(kind, item, ctx).text : item;
        if (isRecord(item)) return nameOf(item) ?? JSON.stringify(item);
        return String(item);
      }),
      // A reorder records the whole list, in its new order.
      ctx.objectType === 'policyList' ? 'ordered' : 'inline',
    );
  }

  if (isRecord(value)) {
    const name = nameOf(value);
    if (name) return { kind: 'text', text: name };
    if (field === 'match' && !value.q) {
      return { kind: 'text', text: t('audit.values.everyUser', 'Every end user') };
    }
    const entries = Object.entries(value)
      .filter(([key]) => !isHiddenField(key, [value]))
      .map(([key, inner]) => ({
        field: key,
        label: auditFieldLabel(t, key),
        value: displayAuditValue(key, inner, ctx),
      }));
    return entries.length === 0 ? { kind: 'none' } : { kind: 'fields', entries };
  }
  return { kind: 'text', text: String(value) };
}

/** What an event's values refer to by id: the kinds of object to look up, and the users (by id). */
export function referencedIds(sides: unknown[]): { kinds: Set<NameKind>; userIds: string[] } {
  const kinds = new Set<NameKind>();
  const userIds = new Set<string>();
  const visit = (field: string, value: unknown, parent: Record<string, unknown>) => {
    if (field === 'rules' && Array.isArray(value)) {
      for (const rule of value) {
        if (!isRecord(rule)) continue;
        if (rule.type === 'app' && rule.url) kinds.add('app');
        if (Array.isArray(rule.categories) && rule.categories.length > 0) kinds.add('category');
        if (Array.isArray(rule.feeds) && rule.feeds.length > 0) kinds.add('feed');
      }
      return;
    }
    if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) visit(key, inner, value);
      return;
    }
    const kind = referenceKind(field);
    if (!kind || isHiddenField(field, [parent])) return;
    const ids = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    // Groups and users are named when the event is written: only older events carry their ids.
    const isId = (id: string) => kind === 'app' || kind === 'category' || kind === 'feed' || UUID.test(id);
    if (!ids.some(isId)) return;
    kinds.add(kind);
    if (kind === 'user') for (const id of ids) userIds.add(id);
  };
  for (const side of sides) {
    if (isRecord(side)) for (const [key, value] of Object.entries(side)) visit(key, value, side);
  }
  return { kinds, userIds: [...userIds] };
}

import { z } from 'zod';
import { KeysetPage, KeysetPageQuery, Uuid } from './common';
import { AdminEvent } from './dashboard';
import { endpoint } from './endpoint';
import { TenantParams } from './tenants';

/**
 * How long a tenant keeps its admin events, in days: the stored default and the range a value may take. What a
 * tenant may keep is further limited by its subscription ({@link EVENT_RETENTION_LIMITS}).
 */
export const EVENT_RETENTION_DAYS = { default: 365, min: 7, max: 3650 } as const;
/**
 * The most days a tenant keeps its admin events, by what its subscription pays for (docs/subscriptions.md,
 * "Add-ons"; `eventRetentionLimit` in subscriptions.ts picks one): `plan` for a subscription whose plan neither
 * includes nor bought the Extended log retention add-on (`extendedRetention`), `extendedRetention` with it, and
 * `noSubscription` for a tenant without one (internal and legacy tenants). The server answers it as `maxDays`,
 * refuses a retention above it (400 `body.days` `validation.retentionAboveMaximum`, `values.max`), answers and
 * purges by min(stored days, it), and keeps the stored days as they are (buying the add-on later brings them back).
 */
export const EVENT_RETENTION_LIMITS = {
  plan: 90,
  extendedRetention: 365,
  noSubscription: EVENT_RETENTION_DAYS.max,
} as const;
/** The most rows one CSV export of the admin event log holds. */
export const MAX_EVENT_EXPORT_ROWS = 100_000;

/** One admin event with the values before and after the change (secrets already redacted by the server). */
export const AdminEventDetail = AdminEvent.extend({
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
});
export type AdminEventDetail = z.infer<typeof AdminEventDetail>;

const IsoDateTime = z.iso.datetime({ offset: true, message: 'validation.format' });

/**
 * Filters of the event log, shared by the list and the export. `action` matches exactly, or as a prefix when it
 * ends with a dot (`user.` finds `user.create`, `user.update`…); `actor` is a case-insensitive part of the name.
 */
const eventFilterFields = {
  actor: z.string().trim().max(200).optional(),
  action: z
    .string()
    .trim()
    .max(100)
    .regex(/^[A-Za-z0-9_.-]+$/, { message: 'validation.format' })
    .optional(),
  objectType: z
    .string()
    .trim()
    .max(100)
    .regex(/^[A-Za-z0-9_.-]+$/, { message: 'validation.format' })
    .optional(),
  /** One object's history (its id), e.g. a user's recent activity. */
  objectId: z.string().trim().max(100).optional(),
  from: IsoDateTime.optional(),
  to: IsoDateTime.optional(),
  q: z.string().trim().max(200).optional(),
  sort: z.enum(['at']).default('at'),
  order: z.enum(['asc', 'desc']).default('desc'),
};

/** `from` must not be after `to`. */
const orderedRange = (value: { from?: string; to?: string }) =>
  !value.from || !value.to || Date.parse(value.from) <= Date.parse(value.to);
const rangeIssue = { message: 'validation.invalid', path: ['to'] };

export const AdminEventListQuery = KeysetPageQuery.extend(eventFilterFields).refine(orderedRange, rangeIssue);
export type AdminEventListQuery = z.infer<typeof AdminEventListQuery>;

export const AdminEventExportQuery = z.object(eventFilterFields).refine(orderedRange, rangeIssue);
export type AdminEventExportQuery = z.infer<typeof AdminEventExportQuery>;

/** The distinct actions and object types of a tenant's log, for the filter choices. */
export const AdminEventFacets = z.object({ actions: z.array(z.string()), objectTypes: z.array(z.string()) });
export type AdminEventFacets = z.infer<typeof AdminEventFacets>;

/** A new retention (`PUT`): within {@link EVENT_RETENTION_DAYS}, and at most the tenant's `maxDays` (else 400). */
export const EventRetentionInput = z.object({
  days: z.number().int().min(EVENT_RETENTION_DAYS.min).max(EVENT_RETENTION_DAYS.max),
});
export type EventRetentionInput = z.infer<typeof EventRetentionInput>;

/**
 * A tenant's retention: `days` its events are kept (the stored value, at most `maxDays`), `maxDays` the most its
 * subscription allows ({@link EVENT_RETENTION_LIMITS}).
 */
export const EventRetention = EventRetentionInput.extend({
  maxDays: z.number().int(),
});
export type EventRetention = z.infer<typeof EventRetention>;

/** How one field of an event changed between before and after. */
export type FieldChange = 'added' | 'removed' | 'changed' | 'unchanged';

/** One row of an event's before/after comparison. */
export interface FieldDiff {
  field: string;
  before: unknown;
  after: unknown;
  change: FieldChange;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON with object keys sorted, so two values that differ only in key order compare equal. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** An event side as fields: an object as is, nothing as no fields, anything else as one field `value`. */
const asFields = (side: unknown): Record<string, unknown> =>
  isPlainObject(side) ? side : side === null || side === undefined ? {} : { value: side };

/**
 * Compares the top-level fields of an event's before and after values, in field-name order. A field present on
 * one side only is added or removed; nested values compare by content.
 */
export function diffEventFields(before: unknown, after: unknown): FieldDiff[] {
  const b = asFields(before);
  const a = asFields(after);
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  return fields.map((field) => {
    const inBefore = Object.hasOwn(b, field);
    const inAfter = Object.hasOwn(a, field);
    let change: FieldChange;
    if (!inBefore) change = 'added';
    else if (!inAfter) change = 'removed';
    else change = stableJson(b[field]) === stableJson(a[field]) ? 'unchanged' : 'changed';
    return { field, before: b[field], after: a[field], change };
  });
}

const EventParams = TenantParams.extend({ id: Uuid });

export const eventEndpoints = {
  listAdminEvents: endpoint({
    method: 'GET',
    path: '/events/admin/:tenant',
    access: 'events:view',
    summary: 'The admin event log, filtered and paged',
    tags: ['events'],
    params: TenantParams,
    query: AdminEventListQuery,
    response: KeysetPage(AdminEvent),
  }),
  exportAdminEvents: endpoint({
    method: 'GET',
    path: '/events/admin/:tenant/export',
    access: 'events:view',
    summary: `The filtered admin event log as CSV (text/csv, at most ${MAX_EVENT_EXPORT_ROWS} rows)`,
    tags: ['events'],
    params: TenantParams,
    query: AdminEventExportQuery,
    response: z.string(),
  }),
  adminEventFacets: endpoint({
    method: 'GET',
    path: '/events/admin/:tenant/facets',
    access: 'events:view',
    summary: 'Distinct actions and object types of the admin event log',
    tags: ['events'],
    params: TenantParams,
    response: AdminEventFacets,
  }),
  getEventRetention: endpoint({
    method: 'GET',
    path: '/events/admin/:tenant/retention',
    access: 'events:view',
    summary: 'How many days admin events are kept, and the most the subscription allows',
    tags: ['events'],
    params: TenantParams,
    response: EventRetention,
  }),
  updateEventRetention: endpoint({
    method: 'PUT',
    path: '/events/admin/:tenant/retention',
    access: 'tenant:update',
    summary:
      "Change how many days admin events are kept (400 above the subscription's maxDays: 90, 365 with Extended log retention)",
    tags: ['events'],
    params: TenantParams,
    body: EventRetentionInput,
    response: EventRetention,
  }),
  getAdminEvent: endpoint({
    method: 'GET',
    path: '/events/admin/:tenant/:id',
    access: 'events:view',
    summary: 'One admin event with its before and after values',
    tags: ['events'],
    params: EventParams,
    response: AdminEventDetail,
  }),
};

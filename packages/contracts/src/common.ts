import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants';

/** A string that must have trimmed length above zero (spec §5); the stored value is trimmed. */
export const NonEmpty = (max = 200) =>
  z.string().trim().min(1, { message: 'validation.required' }).max(max, { message: 'validation.tooLong' });

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, { message: 'validation.tooLong' })
  .pipe(z.email({ message: 'validation.email' }));

export const Uuid = z.uuid({ message: 'validation.uuid' });

/**
 * Names a tenant cannot take: they are fixed path segments next to `{tenant}` in the API (`/policy/{tenant}/{id}`
 * and `/policy/locations/{tenant}` would otherwise both match `/policy/locations/…`).
 */
export const RESERVED_TENANT_NAMES: readonly string[] = [
  'access-requests',
  'apps',
  'blocked-apps',
  'categories',
  'feeds',
  'geo',
  'group',
  'lint',
  'locations',
  'maliciousip',
  'route',
  'simulate',
  'tests',
  'user-view',
  'where-used',
];

/** Tenant and partner names: lowercase slug, used in API paths and sign-in URLs. */
export const TenantName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, { message: 'validation.tenantName' })
  .refine((name) => !RESERVED_TENANT_NAMES.includes(name), { message: 'validation.tenantNameReserved' });

/** Query of every paged list endpoint. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  q: z.string().trim().max(200).optional(),
  order: z.enum(['asc', 'desc']).default('asc'),
});

/** A page of items with the total that matched. */
export const Page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int() });

/**
 * Lists that grow to 100 000 rows count the matches exactly up to this many; beyond, the total is the query
 * planner's estimate (as Supabase Studio does), so asking for it costs the same at any size.
 */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * Query of the large lists (end users, groups, group members, the admin event log): {@link PageQuery} plus
 * keyset paging and a way to skip the count.
 */
export const KeysetPageQuery = PageQuery.extend({
  /**
   * The `nextCursor` of the previous page: this page then starts right after that page's last row, at the same
   * cost at any depth, and `offset` is ignored. Only valid with the sort and order it was made for.
   */
  cursor: z
    .string()
    .max(2000)
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'validation.invalid' })
    .optional(),
  /** `false`: do not count (`total` is null) — for a page turn of a filter whose total the client has. */
  withTotal: z.enum(['true', 'false']).optional(),
});

/**
 * A page of a large list. `total` is exact up to {@link EXACT_COUNT_LIMIT} matches, else an estimate
 * (`totalIsEstimate`), and null when not asked for; `nextCursor` continues after the last row (null on the
 * last page).
 */
export const KeysetPage = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int().nullable(),
    totalIsEstimate: z.boolean(),
    nextCursor: z.string().nullable(),
  });

export const IdList = z.object({ ids: z.array(Uuid).min(1, { message: 'validation.required' }).max(10_000) });
export type IdList = z.infer<typeof IdList>;

export const Ok = z.object({ ok: z.literal(true) });

/**
 * How the policies module's raw SQL rows are read (`queryRows` answers dates and jsonb as the driver gives them:
 * PGlite parses, node-postgres may hand over strings), shared by its repositories.
 */

/** A timestamp column as a Date. */
export const toDate = (value: unknown) => new Date(value as string | Date);

/** A jsonb array column (`jsonb_agg`, `coalesce(…, '[]')`) as a list. */
export const jsonList = <T>(value: unknown): T[] =>
  (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as T[];

import type { Session } from '@palisade/contracts';

/**
 * A tenant the session works in, by its display name: the session's own, or one it manages (the session names
 * them all); any other name as it is.
 */
export function tenantDisplayName(session: Session | null | undefined, name: string): string {
  if (!session) return name;
  if (name === session.tenant) return session.tenantDisplayName;
  return session.managedTenantDisplayNames[name] ?? name;
}

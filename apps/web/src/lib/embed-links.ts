import {
  type EmbedKind,
  type EmbedLinkArgs,
  embedLink,
  type Session,
  type TenantKind,
} from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { publicConfigQuery } from './auth';

/** One embedded dashboard to link to: its kind, and its link from a base and an embed link's token. */
export interface EmbedTarget {
  kind: EmbedKind;
  build: (base: string, token: string) => string;
}

/** An embedded dashboard of `kind` with its arguments, typed per kind (contracts' `embedLink`). */
export function embedTarget<K extends EmbedKind>(kind: K, ...args: EmbedLinkArgs<K>): EmbedTarget {
  return { kind, build: (base, token) => embedLink(base, token, kind, ...args) };
}

/**
 * The dashboards of a tenant an embed link can open, each with its arguments: the per-user dashboard only with
 * its user (`user`), the XDR one with the tenant's kind.
 */
export function embedTargetsFor(
  kinds: readonly EmbedKind[],
  tenant: string,
  tenantKind: TenantKind,
  user?: { id: string; name: string },
): EmbedTarget[] {
  return kinds.flatMap((kind): EmbedTarget[] => {
    switch (kind) {
      case 'global':
        return [embedTarget('global')];
      case 'xdr':
        return [embedTarget('xdr', { tenant, tenantType: tenantKind })];
      case 'user-tag':
        return user ? [embedTarget('user-tag', { tenant, userId: user.id, userName: user.name })] : [];
      default:
        return [embedTarget(kind, { tenant })];
    }
  });
}

/**
 * The base of the embedded-dashboard links: `DASHBOARD_BASE_URL` from the public config, else this console's
 * own origin (its `/embed/…` views). Undefined while the config loads; the origin when it cannot be loaded.
 * `enabled: false` leaves the config alone until the links are shown.
 */
export function useDashboardBase(enabled = true): string | undefined {
  const config = useQuery({ ...publicConfigQuery, enabled });
  if (config.data) return config.data.dashboardBaseUrl ?? window.location.origin;
  if (config.isError) return window.location.origin;
  return undefined;
}

/**
 * The kind of the working tenant, for the XDR link's tenant-type argument: the session's own kind in its own
 * tenant; a tenant it manages is one of its customers.
 */
export function workingTenantKind(session: Session | null, tenant: string): TenantKind {
  if (session && tenant === session.tenant) return session.tenantKind;
  return 'customer';
}

import type { Role, TenantKind } from '@palisade/contracts';

/** The signed-in user a request acts for. */
export interface Actor {
  id: string;
  username: string;
  role: Role;
  usertype: number;
  tenantId: string;
  tenantName: string;
  tenantKind: TenantKind;
  sessionHash: string;
}

/** The tenant a request works on (the path's tenant, or the actor's own). */
export interface TenantRef {
  id: string;
  name: string;
  kind: TenantKind;
}

/** What services receive: never the request itself. */
export interface Ctx {
  tenant: TenantRef;
  actor: Actor;
  ip: string | null;
}

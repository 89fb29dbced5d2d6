import { can, type Permission, ROLE_PERMISSIONS } from '@palisade/contracts';
import type { Actor } from './context';
import { AppError, invalid } from './errors';

/**
 * The rule every grant follows (roles, assignments, invitations, tokens), as GitHub, Cloudflare and Zscaler apply
 * it: nobody gives a permission they do not hold themselves, nobody edits the role they hold or changes their own
 * assignment, and nobody acts on an administrator who holds something they do not. Owners are changed only by
 * owners (checked where owners are made or unmade).
 */

/** What an actor holds now: an API token's scope, a custom role's permissions (read per call), or its role's. */
export function heldPermissions(actor: Actor): readonly Permission[] {
  return actor.permissions ?? ROLE_PERMISSIONS[actor.role] ?? [];
}

/** Whether an actor holds a permission: a token's own scope when it has one, else its role's. */
export function actorCan(actor: Actor, permission: Permission): boolean {
  return actor.permissions ? actor.permissions.includes(permission) : can(actor.role, permission);
}

/** The permissions of `wanted` the actor does not hold, in the order given. */
export function notHeld(actor: Actor, wanted: readonly Permission[]): Permission[] {
  const held = new Set(heldPermissions(actor));
  return wanted.filter((permission) => !held.has(permission));
}

/** Refuses (400 on `path`) a list of permissions with any the actor does not hold, naming them. */
export function assertCanGrant(actor: Actor, wanted: readonly Permission[], path: string): void {
  const missing = notHeld(actor, wanted);
  if (missing.length > 0) {
    throw invalid([
      { path, message: 'validation.permissionNotHeld', values: { permissions: missing.join(', ') } },
    ]);
  }
}

/** Refuses (400 on `path`) a role whose permissions go beyond the actor's. */
export function assertCanGiveRole(actor: Actor, rolePermissions: readonly Permission[], path: string): void {
  const missing = notHeld(actor, rolePermissions);
  if (missing.length > 0) {
    throw invalid([{ path, message: 'validation.roleNotHeld', values: { permissions: missing.join(', ') } }]);
  }
}

/** Refuses (403) acting on an administrator who holds a permission the actor does not. */
export function assertOutranks(actor: Actor, targetPermissions: readonly Permission[]): void {
  if (notHeld(actor, targetPermissions).length > 0) {
    throw new AppError('forbidden', 'This administrator holds permissions you do not hold.', [
      { path: 'params.id', message: 'validation.adminOutranks' },
    ]);
  }
}

/** Refuses (403) a change to the actor's own assignment. */
export function assertNotSelf(actor: Actor, userId: string): void {
  if (actor.id === userId) {
    throw new AppError('forbidden', 'You cannot change your own role.', [
      { path: 'params.id', message: 'validation.ownAssignment' },
    ]);
  }
}

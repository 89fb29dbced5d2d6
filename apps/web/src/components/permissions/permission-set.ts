import {
  ACTIONS,
  type Action,
  ALL_PERMISSIONS,
  MODULES,
  type Module,
  type Permission,
} from '@palisade/contracts';

/** The permission of one cell of the matrix. */
export const permissionOf = (module: Module, action: Action): Permission => `${module}:${action}`;

/** The cells of a module's row. */
export const rowOf = (module: Module): Permission[] => ACTIONS.map((action) => permissionOf(module, action));

/** The cells of an action's column. */
export const columnOf = (action: Action): Permission[] =>
  MODULES.map((module) => permissionOf(module, action));

/**
 * Turns a set of permissions on or off in `current`; the answer is in matrix order (module by module), without
 * duplicates, so the same choice always sends the same list.
 */
export function setPermissions(
  current: readonly Permission[],
  permissions: readonly Permission[],
  isOn: boolean,
): Permission[] {
  const next = new Set(current);
  for (const permission of permissions) {
    if (isOn) next.add(permission);
    else next.delete(permission);
  }
  return ALL_PERMISSIONS.filter((permission) => next.has(permission));
}

/** How many of `permissions` are in `current`: none, some or all (for a checkbox's checked/indeterminate). */
export function coverage(
  current: readonly Permission[],
  permissions: readonly Permission[],
): 'none' | 'some' | 'all' {
  const held = permissions.filter((permission) => current.includes(permission)).length;
  if (held === 0) return 'none';
  return held === permissions.length ? 'all' : 'some';
}

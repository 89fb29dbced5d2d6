import type { Action, Module } from '@palisade/contracts';
import type { TFunction } from 'i18next';

/** Translated names of the matrix's modules (rows), with static keys. */
export function moduleLabels(t: TFunction): Record<Module, string> {
  return {
    users: t('roles.modules.users', 'Users'),
    groups: t('roles.modules.groups', 'Groups'),
    tenant: t('roles.modules.tenant', 'Tenant'),
    events: t('roles.modules.events', 'Events'),
    dashboard: t('roles.modules.dashboard', 'Dashboard'),
    policies: t('roles.modules.policies', 'Policies'),
    devices: t('roles.modules.devices', 'Devices'),
    gateways: t('roles.modules.gateways', 'Gateways'),
    billing: t('roles.modules.billing', 'Billing'),
    roles: t('roles.modules.roles', 'Roles'),
  };
}

/** Translated names of the matrix's actions (columns), as column headings. */
export function actionLabels(t: TFunction): Record<Action, string> {
  return {
    view: t('roles.actions.view', 'View'),
    create: t('roles.actions.create', 'Add'),
    update: t('roles.actions.update', 'Edit'),
    delete: t('roles.actions.delete', 'Delete'),
  };
}

/** The accessible name of one cell, such as "Users: create". */
export function cellLabel(t: TFunction, module: string, action: string): string {
  return t('roles.matrix.cell', '{{module}}: {{action}}', { module, action: action.toLocaleLowerCase() });
}

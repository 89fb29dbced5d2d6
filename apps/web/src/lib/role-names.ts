import type { Role } from '@palisade/contracts';
import type { TFunction } from 'i18next';

/** The translated names of the built-in roles (`roles.names.<role>`), with static keys. */
export function builtInRoleNames(t: TFunction): Record<Role, string> {
  return {
    owner: t('roles.names.owner', 'Owner'),
    admin: t('roles.names.admin', 'Administrator'),
    network_admin: t('roles.names.network_admin', 'Network administrator'),
    security_analyst: t('roles.names.security_analyst', 'Security analyst'),
    helpdesk: t('roles.names.helpdesk', 'Helpdesk'),
    auditor: t('roles.names.auditor', 'Auditor'),
    billing_admin: t('roles.names.billing_admin', 'Billing administrator'),
    partner_admin: t('roles.names.partner_admin', 'Partner administrator'),
    platform_admin: t('roles.names.platform_admin', 'Platform administrator'),
    user: t('roles.names.user', 'End user'),
    custom: t('roles.names.custom', 'Custom role'),
  };
}

/** What to call a holder's role: the custom role's own name, else the built-in role's translated name. */
export function roleLabel(t: TFunction, role: Role, customRoleName: string | null): string {
  if (role === 'custom' && customRoleName) return customRoleName;
  return builtInRoleNames(t)[role];
}

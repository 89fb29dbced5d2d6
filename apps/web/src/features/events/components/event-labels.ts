import { useTranslation } from 'react-i18next';

/**
 * Translated names of known actions and object types; anything unknown shows as recorded. Keys are static
 * (i18next keys cannot hold the actions' dots), so each known value is listed here.
 */
export function useEventLabels() {
  const { t } = useTranslation();
  const actions: Record<string, string> = {
    'user.create': t('events.actions.userCreate', 'User created'),
    'user.update': t('events.actions.userUpdate', 'User updated'),
    'user.delete': t('events.actions.userDelete', 'User deleted'),
    'user.import': t('events.actions.userImport', 'Users imported'),
    'group.create': t('events.actions.groupCreate', 'Group created'),
    'group.update': t('events.actions.groupUpdate', 'Group updated'),
    'group.delete': t('events.actions.groupDelete', 'Group deleted'),
    'group.members.add': t('events.actions.groupMembersAdd', 'Group members added'),
    'group.members.remove': t('events.actions.groupMembersRemove', 'Group members removed'),
    'role.create': t('events.actions.roleCreate', 'Role created'),
    'role.update': t('events.actions.roleUpdate', 'Role updated'),
    'role.delete': t('events.actions.roleDelete', 'Role deleted'),
    'role.assign': t('events.actions.roleAssign', 'Role assigned'),
    'api_token.create': t('events.actions.apiTokenCreate', 'API token created'),
    'api_token.revoke': t('events.actions.apiTokenRevoke', 'API token revoked'),
    'tenant.create': t('events.actions.tenantCreate', 'Tenant created'),
    'tenant.update': t('events.actions.tenantUpdate', 'Tenant settings changed'),
    'tenant.eventRetention.update': t('events.actions.tenantEventRetentionUpdate', 'Event retention changed'),
  };
  const objectTypes: Record<string, string> = {
    user: t('events.objectTypes.user', 'User'),
    group: t('events.objectTypes.group', 'Group'),
    role: t('events.objectTypes.role', 'Role'),
    api_token: t('events.objectTypes.apiToken', 'API token'),
    tenant: t('events.objectTypes.tenant', 'Tenant'),
    import: t('events.objectTypes.import', 'Import'),
  };
  return {
    actionLabel: (action: string) => actions[action] ?? action,
    objectTypeLabel: (type: string) => objectTypes[type] ?? type,
  };
}

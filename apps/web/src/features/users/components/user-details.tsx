import { Box, Paper, SimpleGrid, Text } from '@mantine/core';
import type { User } from '@palisade/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format-time';
import { useFeature } from '../../../lib/tenant-flags';
import { ConnStatusBadge, imsiText } from './users-table';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Box component="dd" m={0} fz="sm">
        {children}
      </Box>
    </div>
  );
}

/** Props of {@link UserDetails}. */
export interface UserDetailsProps {
  user: User;
  /** Group id → name. */
  groupNames: ReadonlyMap<string, string>;
}

/** The read-only view of one user, as a description list; the XDR flag only while the working tenant has XDR. */
export function UserDetails({ user, groupNames }: UserDetailsProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const hasXdr = useFeature('xdr');
  const yesNo = (value: boolean) => (value ? t('users.flag.yesText', 'Yes') : t('users.flag.noText', 'No'));
  const groups = user.groups
    .map((id) => groupNames.get(id))
    .filter((name): name is string => name !== undefined);
  const dateTime = (iso: string) => format.dateTime(iso);
  return (
    <Paper withBorder p="lg" radius="sm" maw={900}>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2, md: 3 }} spacing="lg" verticalSpacing="md" m={0}>
        <Item label={t('users.status.label', 'Account')}>
          {user.status === 'disabled'
            ? t('users.status.disabledBy', 'Disabled by {{by}} on {{at}}: {{reason}}', {
                by: user.statusChangedBy ?? '—',
                at: user.statusChangedAt ? dateTime(user.statusChangedAt) : '—',
                reason: user.statusReason ?? '—',
              })
            : t('users.status.active', 'Active')}
        </Item>
        <Item label={t('users.form.username', 'Username')}>{user.username}</Item>
        <Item label={t('users.details.shortname', 'Short name')}>{user.shortname}</Item>
        <Item label={t('users.form.email', 'E-mail')}>{user.email}</Item>
        <Item label={t('users.form.firstname', 'First name')}>{user.firstname}</Item>
        <Item label={t('users.form.lastname', 'Last name')}>{user.lastname}</Item>
        <Item label={t('users.form.groups', 'Groups')}>{groups.length > 0 ? groups.join(', ') : '—'}</Item>
        <Item label={t('users.columns.connstatus', 'Connection status')}>
          <ConnStatusBadge status={user.connstatus} />
        </Item>
        <Item label={t('users.columns.isprvaccess', 'Private access')}>{yesNo(user.isprvaccess)}</Item>
        <Item label={t('users.columns.issiauser', 'Internet access')}>{yesNo(user.issiauser)}</Item>
        {hasXdr ? (
          <Item label={t('users.columns.isxdrenabled', 'XDR')}>{yesNo(user.isxdrenabled)}</Item>
        ) : null}
        <Item label={t('users.details.suci', 'SUCI')}>
          <Text span size="sm" ff={user.suci ? 'monospace' : undefined} style={{ wordBreak: 'break-all' }}>
            {user.suci ?? '—'}
          </Text>
        </Item>
        <Item label={t('users.columns.imsi', 'IMSI')}>
          {imsiText(user, t('users.imsi.concealed', 'Concealed'))}
        </Item>
        <Item label={t('users.columns.createdAt', 'Created')}>{dateTime(user.createdAt)}</Item>
        <Item label={t('users.details.updatedAt', 'Last changed')}>{dateTime(user.updatedAt)}</Item>
      </SimpleGrid>
    </Paper>
  );
}

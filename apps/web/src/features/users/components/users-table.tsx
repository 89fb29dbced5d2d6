import { Anchor, Badge, Box, Button, CheckIcon, CloseIcon, Text } from '@mantine/core';
import type { CONN_STATUSES, USER_SORTS, User } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ListColumn } from '../../../components/list/column-choice';
import { useFormatters } from '../../../lib/format-time';
import { useFeature } from '../../../lib/tenant-flags';

/** A sortable column of the users list (the contract's `sort` values). */
export type UserSort = (typeof USER_SORTS)[number];

/** One of the connection statuses of spec §4. */
export type ConnStatus = (typeof CONN_STATUSES)[number];

const CONN_COLORS: Record<ConnStatus, string> = { connected: 'green', disconnected: 'orange', never: 'gray' };

/** Connection status as translated text on a colour badge. */
export function ConnStatusBadge({ status }: { status: ConnStatus }) {
  const { t } = useTranslation();
  const labels: Record<ConnStatus, string> = {
    connected: t('users.connstatus.connected', 'Connected'),
    disconnected: t('users.connstatus.disconnected', 'Disconnected'),
    never: t('users.connstatus.never', 'Never connected'),
  };
  return (
    <Badge color={CONN_COLORS[status]} variant="light" radius="sm">
      {labels[status]}
    </Badge>
  );
}

/** A yes/no flag as an icon with an accessible label such as "Private access: yes". */
export function FlagIcon({ value, label }: { value: boolean; label: string }) {
  const { t } = useTranslation();
  const text = `${label}: ${value ? t('users.flag.yes', 'yes') : t('users.flag.no', 'no')}`;
  return (
    <Box
      component="span"
      role="img"
      aria-label={text}
      title={text}
      c={value ? 'green' : 'dimmed'}
      style={{ display: 'inline-flex' }}
    >
      {value ? <CheckIcon size={14} aria-hidden /> : <CloseIcon size="14" aria-hidden />}
    </Box>
  );
}

/** The IMSI of a user: readable for the null protection scheme, "concealed" otherwise, a dash without SUCI. */
export function imsiText(user: Pick<User, 'imsi' | 'suci'>, concealed: string): string {
  if (user.imsi) return user.imsi;
  return user.suci ? concealed : '—';
}

/** Options of {@link useUserColumns}. */
export interface UserColumnsOptions {
  /** Group id → name, for the groups column. */
  groupNames: ReadonlyMap<string, string>;
  /** Shows the per-row "Copy" action. */
  canCopy: boolean;
}

/**
 * The columns of the users list. By default they fit a 1440-px screen: the name (kept in view while the table
 * scrolls), the username — which is the sign-in e-mail, so the e-mail column starts hidden —, groups,
 * connection, the access flags and the creation date; the e-mail and the IMSI are a choice in the column chooser.
 * Phones keep the name and the connection. The name is a link, so keyboard users reach each user by Tab. The XDR
 * flag's column is there only while the working tenant has XDR (contracts `FEATURE_PARTS.xdr`): not even offered
 * in the chooser otherwise.
 */
export function useUserColumns({ groupNames, canCopy }: UserColumnsOptions): ListColumn<User>[] {
  const { t } = useTranslation();
  const hasXdr = useFeature('xdr');
  const format = useFormatters();
  const privateAccess = t('users.columns.isprvaccess', 'Private access');
  const internetAccess = t('users.columns.issiauser', 'Internet access');
  const xdr = t('users.columns.isxdrenabled', 'XDR');
  const concealed = t('users.imsi.concealed', 'Concealed');
  const xdrColumn: ListColumn<User> = {
    accessor: 'isxdrenabled',
    title: xdr,
    textAlign: 'center',
    render: (user) => <FlagIcon value={user.isxdrenabled} label={xdr} />,
  };

  return [
    {
      accessor: 'fullname',
      title: t('users.columns.fullname', 'Full name'),
      sortable: true,
      noWrap: true,
      isAlwaysShown: true,
      isEssential: true,
      render: (user) => (
        <>
          <Anchor component={Link} to={`/users/${user.id}`} fw={500}>
            {user.fullname}
          </Anchor>
          {user.status === 'disabled' ? (
            <Badge color="red" variant="light" radius="sm" ml="xs">
              {t('users.status.disabledBadge', 'Disabled')}
            </Badge>
          ) : null}
        </>
      ),
    },
    {
      accessor: 'username',
      title: t('users.columns.username', 'Username'),
      sortable: true,
      noWrap: true,
    },
    {
      accessor: 'email',
      title: t('users.columns.email', 'E-mail'),
      sortable: true,
      noWrap: true,
      isHiddenByDefault: true,
    },
    {
      accessor: 'groups',
      title: t('users.columns.groups', 'Groups'),
      render: (user) =>
        user.groups
          .map((id) => groupNames.get(id))
          .filter((name): name is string => name !== undefined)
          .join(', ') || '—',
    },
    {
      accessor: 'connstatus',
      title: t('users.columns.connstatus', 'Connection status'),
      sortable: true,
      noWrap: true,
      isEssential: true,
      render: (user) => <ConnStatusBadge status={user.connstatus} />,
    },
    {
      accessor: 'isprvaccess',
      title: privateAccess,
      textAlign: 'center',
      render: (user) => <FlagIcon value={user.isprvaccess} label={privateAccess} />,
    },
    {
      accessor: 'issiauser',
      title: internetAccess,
      textAlign: 'center',
      render: (user) => <FlagIcon value={user.issiauser} label={internetAccess} />,
    },
    ...(hasXdr ? [xdrColumn] : []),
    {
      accessor: 'imsi',
      title: t('users.columns.imsi', 'IMSI'),
      isHiddenByDefault: true,
      render: (user) => (
        <Text size="sm" ff={user.imsi ? 'monospace' : undefined} c={user.imsi ? undefined : 'dimmed'}>
          {imsiText(user, concealed)}
        </Text>
      ),
    },
    {
      accessor: 'createdAt',
      title: t('users.columns.createdAt', 'Created'),
      sortable: true,
      noWrap: true,
      render: (user) => format.date(user.createdAt),
    },
    {
      accessor: 'actions',
      title: t('users.columns.actions', 'Actions'),
      hidden: !canCopy,
      isAlwaysShown: true,
      textAlign: 'right',
      render: (user) => (
        <Button
          component={Link}
          to={`/users/${user.id}/copy`}
          size="compact-sm"
          variant="subtle"
          aria-label={t('users.list.copyUser', 'Copy {{name}}', { name: user.fullname })}
        >
          {t('users.list.copy', 'Copy')}
        </Button>
      ),
    },
  ];
}

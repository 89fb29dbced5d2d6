import { Badge, Button, Code, Group, Stack, Text, Tooltip } from '@mantine/core';
import { ACTIONS, type ApiToken, MODULES } from '@palisade/contracts';
import type { DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { actionLabels, moduleLabels } from '../../../components/permissions/permission-labels';
import { useFormatters } from '../../../lib/format-time';

/** Where a token stands now. */
export type TokenStatus = 'active' | 'expired' | 'revoked';

export function tokenStatus(token: ApiToken, now = Date.now()): TokenStatus {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return 'expired';
  return 'active';
}

const STATUS_COLORS: Record<TokenStatus, string> = { active: 'green', expired: 'gray', revoked: 'red' };

/** "Users: view, add · Groups: view", one module per part, in catalogue order. */
function usePermissionSummary() {
  const { t } = useTranslation();
  const modules = moduleLabels(t);
  const actions = actionLabels(t);
  return (permissions: readonly string[]) =>
    MODULES.map((module) => {
      const granted = ACTIONS.filter((action) => permissions.includes(`${module}:${action}`));
      return granted.length
        ? `${modules[module]}: ${granted.map((action) => actions[action].toLowerCase()).join(', ')}`
        : null;
    })
      .filter(Boolean)
      .join(' · ');
}

/** Options of {@link useTokenColumns}. */
export interface TokenColumnsOptions<T extends ApiToken> {
  /** Asks to revoke a token (the caller confirms first). */
  onRevoke: (token: T) => void;
  /** The accessible name of a row's revoke button; "Revoke {name}" unless given. */
  revokeLabel?: (token: T) => string;
}

/**
 * The columns every token list shows, by name, for a list to arrange (and add its own between): name with
 * prefix, permissions with read-only, expiry, last use with its address, status, and the revoke action.
 */
export function useTokenColumns<T extends ApiToken>({ onRevoke, revokeLabel }: TokenColumnsOptions<T>) {
  const { t } = useTranslation();
  const summary = usePermissionSummary();
  const { date, dateTime } = useFormatters();
  const statusLabels: Record<TokenStatus, string> = {
    active: t('tokens.status.active', 'Active'),
    expired: t('tokens.status.expired', 'Expired'),
    revoked: t('tokens.status.revoked', 'Revoked'),
  };

  const name: DataTableColumn<T> = {
    accessor: 'name',
    title: t('tokens.column.name', 'Name'),
    render: (token) => (
      <Stack gap={0}>
        <Text size="sm" fw={500}>
          {token.name}
        </Text>
        <Code fz="xs">{`${token.prefix}…`}</Code>
      </Stack>
    ),
  };
  const permissions: DataTableColumn<T> = {
    accessor: 'permissions',
    title: t('tokens.column.permissions', 'Permissions'),
    render: (token) => {
      const text = summary(token.permissions);
      return (
        <Group gap={6} wrap="nowrap">
          {token.isReadOnly ? (
            <Badge variant="light" color="blue" radius="sm">
              {t('tokens.readOnly', 'Read-only')}
            </Badge>
          ) : null}
          <Tooltip label={text} multiline w={320} withinPortal>
            <Text size="sm" lineClamp={2} tabIndex={0}>
              {text}
            </Text>
          </Tooltip>
        </Group>
      );
    },
  };
  const expires: DataTableColumn<T> = {
    accessor: 'expiresAt',
    title: t('tokens.column.expires', 'Expires'),
    render: (token) => (token.expiresAt ? date(token.expiresAt) : t('tokens.never', 'Never')),
  };
  const lastUsed: DataTableColumn<T> = {
    accessor: 'lastUsedAt',
    title: t('tokens.column.lastUsed', 'Last used'),
    render: (token) =>
      token.lastUsedAt ? (
        <Stack gap={0}>
          <Text size="sm">{dateTime(token.lastUsedAt)}</Text>
          {token.lastUsedIp ? (
            <Text size="xs" c="dimmed">
              {token.lastUsedIp}
            </Text>
          ) : null}
        </Stack>
      ) : (
        t('tokens.notUsed', 'Not used yet')
      ),
  };
  const status: DataTableColumn<T> = {
    accessor: 'status',
    title: t('tokens.column.status', 'Status'),
    // The badge is never cut short ("AC…"): the permissions column gives way instead.
    noWrap: true,
    width: 110,
    render: (token) => {
      const value = tokenStatus(token);
      return (
        <Badge color={STATUS_COLORS[value]} variant="light" radius="sm">
          {statusLabels[value]}
        </Badge>
      );
    },
  };
  const actions: DataTableColumn<T> = {
    accessor: 'actions',
    title: t('tokens.column.actions', 'Actions'),
    textAlign: 'right',
    render: (token) =>
      token.revokedAt ? null : (
        <Button
          size="compact-sm"
          variant="subtle"
          color="red"
          onClick={() => onRevoke(token)}
          aria-label={
            revokeLabel?.(token) ?? t('tokens.revoke.label', 'Revoke {{name}}', { name: token.name })
          }
        >
          {t('tokens.revoke.button', 'Revoke')}
        </Button>
      ),
  };
  return { name, permissions, expires, lastUsed, status, actions };
}

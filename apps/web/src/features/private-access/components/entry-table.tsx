import { Button, Group, Switch, Table, VisuallyHidden } from '@mantine/core';
import type { PrivateService, ZtnaRule } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Audience, Mono, ProtocolPorts } from './labels';

/** What the table shows of a service or a rule. */
export type AccessEntry = Pick<
  PrivateService | ZtnaRule,
  'id' | 'name' | 'gatewayId' | 'gatewayName' | 'users' | 'groups' | 'enabled'
> & { protocol: ZtnaRule['protocol']; ports: string | null };

/** Props of {@link EntryTable}. */
export interface EntryTableProps<T extends AccessEntry> {
  entries: T[];
  caption: string;
  /** The header and value of the column of what the entry reaches (internal address, destination). */
  targetHeader: string;
  targetOf: (entry: T) => string;
  canUpdate: boolean;
  canDelete: boolean;
  /** What the enabled switch shows: the saved state, or the one being saved. */
  enabledOf: (entry: T) => boolean;
  isToggling: (entry: T) => boolean;
  onToggle: (entry: T, enabled: boolean) => void;
  onEdit: (entry: T) => void;
  onDelete: (entry: T) => void;
}

/**
 * Services or rules as a table: name (the row header), site gateway, what they reach, protocol and ports, who
 * may reach it, an enabled switch that saves at once, and edit and delete.
 */
export function EntryTable<T extends AccessEntry>({
  entries,
  caption,
  targetHeader,
  targetOf,
  canUpdate,
  canDelete,
  enabledOf,
  isToggling,
  onToggle,
  onEdit,
  onDelete,
}: EntryTableProps<T>) {
  const { t } = useTranslation();
  const hasActions = canUpdate || canDelete;
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table withTableBorder highlightOnHover verticalSpacing="sm">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('privateAccess.table.name', 'Name')}</Table.Th>
            <Table.Th scope="col">{t('privateAccess.table.gateway', 'Site gateway')}</Table.Th>
            <Table.Th scope="col">{targetHeader}</Table.Th>
            <Table.Th scope="col">{t('privateAccess.table.protocolPorts', 'Protocol and ports')}</Table.Th>
            <Table.Th scope="col">{t('privateAccess.table.audience', 'Who may reach it')}</Table.Th>
            <Table.Th scope="col">{t('privateAccess.table.enabled', 'Enabled')}</Table.Th>
            {hasActions ? (
              <Table.Th scope="col">
                <VisuallyHidden>{t('privateAccess.table.actions', 'Actions')}</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => {
            const isEnabled = enabledOf(entry);
            return (
              <Table.Tr key={entry.id}>
                <Table.Th scope="row" fw={500}>
                  {entry.name}
                </Table.Th>
                <Table.Td>{entry.gatewayName || <Mono>{entry.gatewayId}</Mono>}</Table.Td>
                <Table.Td>
                  <Mono>{targetOf(entry)}</Mono>
                </Table.Td>
                <Table.Td>
                  <ProtocolPorts protocol={entry.protocol} ports={entry.ports} />
                </Table.Td>
                <Table.Td>
                  <Audience name={entry.name} users={entry.users} groups={entry.groups} />
                </Table.Td>
                <Table.Td>
                  <Switch
                    checked={isEnabled}
                    disabled={!canUpdate || isToggling(entry)}
                    onChange={(event) => onToggle(entry, event.currentTarget.checked)}
                    aria-label={t('privateAccess.table.enabledLabel', 'Enabled: {{name}}', {
                      name: entry.name,
                    })}
                    label={
                      <VisuallyHidden>
                        {isEnabled ? t('privateAccess.table.on', 'On') : t('privateAccess.table.off', 'Off')}
                      </VisuallyHidden>
                    }
                  />
                </Table.Td>
                {hasActions ? (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {canUpdate ? (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          aria-label={t('privateAccess.table.editNamed', 'Edit {{name}}', {
                            name: entry.name,
                          })}
                          onClick={() => onEdit(entry)}
                        >
                          {t('privateAccess.table.edit', 'Edit')}
                        </Button>
                      ) : null}
                      {canDelete ? (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          aria-label={t('privateAccess.table.deleteNamed', 'Delete {{name}}', {
                            name: entry.name,
                          })}
                          onClick={() => onDelete(entry)}
                        >
                          {t('privateAccess.table.delete', 'Delete')}
                        </Button>
                      ) : null}
                    </Group>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

import { Anchor, Text } from '@mantine/core';
import type { AdminEvent } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '../../../components/list/column-choice';
import { RelativeTime } from '../../../components/ui/relative-time';
import { useAuditLabels } from '../../../lib/audit-labels';
import { useFormatters } from '../../../lib/format-time';

/**
 * The columns of the admin event log: time (the one sort), actor, the action in words (a button that opens
 * the event's details), the object by name with its type, and the address it came from. Phones keep the
 * time and the action.
 */
export function useEventColumns({
  onOpen,
}: {
  onOpen: (event: AdminEvent) => void;
}): ListColumn<AdminEvent>[] {
  const { t } = useTranslation();
  const { actionLabel, objectTypeLabel, objectName } = useAuditLabels();
  const format = useFormatters();
  return [
    {
      accessor: 'at',
      title: t('events.columns.time', 'Time'),
      sortable: true,
      noWrap: true,
      isEssential: true,
      render: (event) => <RelativeTime value={event.at} withTooltip size="sm" />,
    },
    {
      accessor: 'actor',
      title: t('events.columns.actor', 'Actor'),
      noWrap: true,
      render: (event) => (
        <div>
          <Text size="sm">{event.actor}</Text>
          {event.actingFrom && (
            <Text size="xs" c="dimmed">
              {t('events.actingFrom', 'Partner {{partner}}, acting in this tenant', {
                partner: event.actingFrom,
              })}
            </Text>
          )}
        </div>
      ),
    },
    {
      accessor: 'action',
      title: t('events.columns.action', 'Action'),
      isEssential: true,
      render: (event) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          ta="start"
          onClick={() => onOpen(event)}
          aria-label={t('events.list.open', 'Details of {{action}} at {{time}}', {
            action: actionLabel(event.action),
            time: format.dateTime(event.at, { timeStyle: 'medium' }),
          })}
        >
          {actionLabel(event.action)}
        </Anchor>
      ),
    },
    {
      accessor: 'objectName',
      title: t('events.columns.object', 'Object'),
      render: (event) => (
        <div>
          <Text size="sm">{objectName(event) ?? event.objectId ?? '—'}</Text>
          <Text size="xs" c="dimmed">
            {objectTypeLabel(event.objectType)}
          </Text>
        </div>
      ),
    },
    {
      accessor: 'ip',
      title: t('events.columns.ip', 'IP address'),
      noWrap: true,
      render: (event) => event.ip ?? '—',
    },
  ];
}

import { Button, Group, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '../../../components/ui/date-time-field';
import { useCan } from '../../../lib/auth';
import {
  hasFilters,
  isRangeInverted,
  NO_FILTERS,
  type TelemetryFilters,
  TIME_RANGES,
  type TimeRange,
} from '../utils/event-filters';
import { EntitySelect } from './entity-select';

const NO_NAMES: ReadonlyMap<string, string> = new Map();

/** Props of {@link EventFilters}. */
export interface EventFiltersProps<A extends string> {
  filters: TelemetryFilters<A>;
  /** The screen's actions with their labels, in the order offered. */
  actions: Record<A, string>;
  /** Names of the users, devices and gateways on screen, by id; null until the rows are in. */
  knownNames: ReadonlyMap<string, string> | null;
  /** Applies changed filters (the page goes back to 1). */
  onChange: (patch: Partial<TelemetryFilters<A>>) => void;
}

/**
 * The filters of an event screen: the time range (last hour, day, week or month, or a chosen start and end),
 * the user, device and gateway (each a search of its list, offered when the role may read that list) and the
 * action.
 */
export function EventFilters<A extends string>({
  filters,
  actions,
  knownNames,
  onChange,
}: EventFiltersProps<A>) {
  const { t } = useTranslation();
  const canViewUsers = useCan('users:view');
  const canViewDevices = useCan('devices:view');
  const canViewGateways = useCan('gateways:view');
  const rangeLabels: Record<TimeRange, string> = {
    '1h': t('telemetry.filters.ranges.1h', 'Last hour'),
    '24h': t('telemetry.filters.ranges.24h', 'Last 24 hours'),
    '7d': t('telemetry.filters.ranges.7d', 'Last 7 days'),
    '30d': t('telemetry.filters.ranges.30d', 'Last 30 days'),
    custom: t('telemetry.filters.ranges.custom', 'Custom range'),
  };
  const any = t('telemetry.filters.any', 'Any');

  return (
    <Group
      align="flex-start"
      gap="md"
      wrap="wrap"
      role="search"
      aria-label={t('telemetry.filters.label', 'Filter events')}
    >
      <Select
        label={t('telemetry.filters.range', 'Time range')}
        data={TIME_RANGES.map((range) => ({ value: range, label: rangeLabels[range] }))}
        value={filters.range}
        allowDeselect={false}
        onChange={(value) => onChange({ range: (value ?? NO_FILTERS.range) as TimeRange, from: '', to: '' })}
        w={{ base: '100%', sm: 180 }}
      />
      {filters.range === 'custom' ? (
        <>
          <DateTimeField
            label={t('telemetry.filters.from', 'From')}
            value={filters.from}
            onChange={(from) => onChange({ from })}
            w={{ base: '100%', sm: 220 }}
          />
          <DateTimeField
            label={t('telemetry.filters.to', 'To')}
            value={filters.to}
            onChange={(to) => onChange({ to })}
            error={
              isRangeInverted(filters)
                ? t('telemetry.filters.rangeInverted', 'The end is before the start.')
                : undefined
            }
            w={{ base: '100%', sm: 220 }}
          />
        </>
      ) : null}
      {canViewUsers ? (
        <EntitySelect
          entity="users"
          label={t('telemetry.filters.user', 'User')}
          placeholder={t('telemetry.filters.anyUser', 'Any user')}
          value={filters.userId}
          onChange={(userId) => onChange({ userId })}
          knownNames={knownNames ?? NO_NAMES}
          canLookUp={knownNames !== null}
        />
      ) : null}
      {canViewDevices ? (
        <EntitySelect
          entity="devices"
          label={t('telemetry.filters.device', 'Device')}
          placeholder={t('telemetry.filters.anyDevice', 'Any device')}
          value={filters.deviceId}
          onChange={(deviceId) => onChange({ deviceId })}
          knownNames={knownNames ?? NO_NAMES}
          canLookUp={knownNames !== null}
        />
      ) : null}
      {canViewGateways ? (
        <EntitySelect
          entity="gateways"
          label={t('telemetry.filters.gateway', 'Gateway')}
          placeholder={t('telemetry.filters.anyGateway', 'Any gateway')}
          value={filters.gatewayId}
          onChange={(gatewayId) => onChange({ gatewayId })}
          knownNames={knownNames ?? NO_NAMES}
          canLookUp={knownNames !== null}
        />
      ) : null}
      <Select
        label={t('telemetry.filters.action', 'Action')}
        placeholder={any}
        data={(Object.keys(actions) as A[]).map((action) => ({ value: action, label: actions[action] }))}
        value={filters.action || null}
        onChange={(value) => onChange({ action: (value ?? '') as A | '' })}
        clearable
        w={{ base: '100%', sm: 200 }}
      />
      {hasFilters(filters) ? (
        <Button variant="subtle" mt={25} onClick={() => onChange(NO_FILTERS)}>
          {t('telemetry.filters.clear', 'Clear filters')}
        </Button>
      ) : null}
    </Group>
  );
}

import { Button, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { AdminEventFacets } from '@palisade/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '../../../components/ui/date-time-field';
import { useAuditLabels } from '../../../lib/audit-labels';
import { DEFAULT_EVENTS_STATE, type EventsListState, isRangeInverted } from '../utils/event-filters';

/** How long the actor search waits after the last keystroke before it asks the server. */
export const ACTOR_DEBOUNCE_MS = 300;

/** Props of {@link EventFilters}. */
export interface EventFiltersProps {
  state: EventsListState;
  facets: AdminEventFacets | undefined;
  /** Applies changed filters (the page goes back to 1). */
  onChange: (patch: Partial<EventsListState>) => void;
}

/** The areas of the known actions (`user.` for `user.create`…), offered as "every action of" choices. */
function actionPrefixes(actions: readonly string[]): string[] {
  const prefixes = actions.filter((a) => a.includes('.')).map((a) => `${a.slice(0, a.indexOf('.'))}.`);
  return [...new Set(prefixes)].sort();
}

/** Filters of the event log: actor search, action, object type and a time range. */
export function EventFilters({ state, facets, onChange }: EventFiltersProps) {
  const { t, i18n } = useTranslation();
  const { actionLabel, objectTypeLabel, areaLabel } = useAuditLabels();
  // Choices in the order of their names, as they are read (the codes' order means nothing in words).
  const byLabel = (a: { label: string }, b: { label: string }) =>
    a.label.localeCompare(b.label, i18n.resolvedLanguage ?? i18n.language);

  const [actorText, setActorText] = useState(state.actor);
  const applyActor = useDebouncedCallback((actor: string) => onChange({ actor }), ACTOR_DEBOUNCE_MS);
  // Back, forward and "Clear filters" change the address under the box; the box follows.
  useEffect(() => {
    setActorText((text) => (text.trim() === state.actor.trim() ? text : state.actor));
  }, [state.actor]);

  const actions = facets?.actions ?? [];
  // A filter chosen from a link stays choosable even when the facets do not list it.
  const withCurrent = (values: readonly string[], current: string) =>
    current && !values.includes(current) && !current.endsWith('.') ? [...values, current] : values;
  const prefixes = actionPrefixes(actions);
  const actionData = [
    {
      group: t('events.filters.actionAreas', 'All actions of'),
      items: (state.action.endsWith('.') && !prefixes.includes(state.action)
        ? [...prefixes, state.action]
        : prefixes
      )
        .map((prefix) => ({ value: prefix, label: areaLabel(prefix.slice(0, -1)) }))
        .sort(byLabel),
    },
    {
      group: t('events.filters.actionsGroup', 'Actions'),
      items: withCurrent(actions, state.action)
        .map((action) => ({ value: action, label: actionLabel(action) }))
        .sort(byLabel),
    },
  ].filter((group) => group.items.length > 0);
  const objectTypeData = withCurrent(facets?.objectTypes ?? [], state.objectType)
    .map((type) => ({ value: type, label: objectTypeLabel(type) }))
    .sort(byLabel);
  const isInverted = isRangeInverted(state);
  const hasFilters =
    state.actor !== '' ||
    state.action !== '' ||
    state.objectType !== '' ||
    state.from !== '' ||
    state.to !== '';

  return (
    <Group
      align="flex-start"
      gap="md"
      wrap="wrap"
      role="search"
      aria-label={t('events.filters.label', 'Filter events')}
    >
      <TextInput
        type="search"
        label={t('events.filters.actor', 'Actor')}
        placeholder={t('events.filters.actorPlaceholder', 'Part of a name')}
        value={actorText}
        onChange={(event) => {
          setActorText(event.currentTarget.value);
          applyActor(event.currentTarget.value);
        }}
        w={{ base: '100%', sm: 220 }}
      />
      <Select
        label={t('events.filters.action', 'Action')}
        placeholder={t('events.filters.any', 'Any')}
        data={actionData}
        value={state.action || null}
        onChange={(value) => onChange({ action: value ?? '' })}
        clearable
        searchable
        nothingFoundMessage={t('events.filters.nothingFound', 'Nothing found')}
        w={{ base: '100%', sm: 240 }}
      />
      <Select
        label={t('events.filters.objectType', 'Object type')}
        placeholder={t('events.filters.any', 'Any')}
        data={objectTypeData}
        value={state.objectType || null}
        onChange={(value) => onChange({ objectType: value ?? '' })}
        clearable
        w={{ base: '100%', sm: 180 }}
      />
      <DateTimeField
        label={t('events.filters.from', 'From')}
        value={state.from}
        onChange={(from) => onChange({ from })}
        w={{ base: '100%', sm: 220 }}
      />
      <DateTimeField
        label={t('events.filters.to', 'To')}
        value={state.to}
        onChange={(to) => onChange({ to })}
        error={isInverted ? t('events.filters.rangeInverted', 'The end is before the start.') : undefined}
        w={{ base: '100%', sm: 220 }}
      />
      {hasFilters ? (
        <Button
          variant="subtle"
          mt={25}
          onClick={() => {
            setActorText('');
            onChange({
              actor: DEFAULT_EVENTS_STATE.actor,
              action: DEFAULT_EVENTS_STATE.action,
              objectType: DEFAULT_EVENTS_STATE.objectType,
              from: DEFAULT_EVENTS_STATE.from,
              to: DEFAULT_EVENTS_STATE.to,
            });
          }}
        >
          {t('events.filters.clear', 'Clear filters')}
        </Button>
      ) : null}
    </Group>
  );
}

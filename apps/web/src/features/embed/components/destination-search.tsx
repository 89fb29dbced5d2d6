import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DecisionEvents } from '../../../components/charts/decision-drill-down';
import { PageHeader } from '../../../components/ui/page-header';
import { useWorkingTenant } from '../../../lib/auth';

/** The address parameter the searched destination is kept in. */
export const DESTINATION_PARAM = 'destination';

/** The longest destination the decision filter takes (a host name). */
const MAX_DESTINATION = 253;

/**
 * The search page of the embedded dashboards: a destination typed in the box lists what the policy decided for
 * it in the range — the decision list's destination filter (an exact host name or address, as the gateways
 * report it; case does not matter). The search is kept in the address (`?destination=`).
 */
export function DestinationSearch({ range }: { range: { from: string; to: string } | null }) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const [searchParams, setSearchParams] = useSearchParams();
  const destination = (searchParams.get(DESTINATION_PARAM) ?? '').trim().toLowerCase();
  const [draft, setDraft] = useState(destination);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = draft.trim().toLowerCase();
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(DESTINATION_PARAM, value);
        else next.delete(DESTINATION_PARAM);
        return next;
      },
      { replace: true },
    );
  };

  const title = t('embed.search.title', 'Search the decisions');
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description={t(
          'embed.search.description',
          'Type a destination to see every request the policy decided for it in the time range.',
        )}
      />
      <form onSubmit={submit}>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('embed.search.label', 'Destination')}
            description={t(
              'embed.search.hint',
              'A host name or address, exactly: example.com or 203.0.113.7',
            )}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            maxLength={MAX_DESTINATION}
            w={{ base: '100%', sm: 360 }}
          />
          <Button type="submit">{t('embed.search.submit', 'Search')}</Button>
        </Group>
      </form>
      {destination && range ? (
        <DecisionEvents
          tenant={tenant}
          filters={{ ...range, destination }}
          caption={t('embed.search.caption', 'Decisions for {{destination}}', { destination })}
          emptyText={t('embed.search.empty', 'No request to {{destination}} in this time range.', {
            destination,
          })}
        />
      ) : (
        <Text size="sm" c="dimmed">
          {t('embed.search.idle', 'Nothing searched yet.')}
        </Text>
      )}
    </Stack>
  );
}

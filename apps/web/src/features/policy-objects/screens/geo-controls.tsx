import {
  Button,
  Checkbox,
  CloseButton,
  Fieldset,
  Group,
  Pill,
  ScrollArea,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { GeoControls } from '@palisade/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { countryNamer } from '../../../lib/country-names';
import { formatDate } from '../../../lib/format-time';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useGeoControls, useSetGeoControls } from '../api/geo';
import { GeoLookup } from '../components/geo-lookup';
import { ObjectsPageHeader } from '../components/objects-page-header';
import { PolicyTestFailuresAlert, useTestFailures } from '../components/policy-test-failures-alert';

/**
 * `/policy/geo-controls`: the countries blocked for the whole tenant (requests to and from them), chosen from
 * the shipped GeoIP database's country list, and an IP look-up.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const geoQuery = useGeoControls(tenant);

  return (
    <>
      <ObjectsPageHeader
        title={t('policyObjects.geo.title', 'Geo controls')}
        description={t(
          'policyObjects.geo.description',
          'Block countries for everyone in this tenant: requests to and from addresses located there are refused.',
        )}
      />
      {geoQuery.isPending ? (
        <LoadingState label={t('policyObjects.geo.loading', 'Loading countries…')} />
      ) : geoQuery.isError ? (
        <ErrorState error={geoQuery.error} onRetry={() => void geoQuery.refetch()} />
      ) : (
        <GeoEditor geo={geoQuery.data} />
      )}
    </>
  );
}

function GeoEditor({ geo }: { geo: GeoControls }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const tenant = useWorkingTenant();
  const canUpdate = useCan('policies:update');
  const failures = useTestFailures();

  const countryName = useMemo(
    () => countryNamer(locale, new Map(geo.countries.map((country) => [country.code, country.name]))),
    [locale, geo.countries],
  );
  const countries = useMemo(
    () =>
      geo.countries
        .map((country) => ({ code: country.code, name: countryName(country.code) }))
        .sort((a, b) => a.name.localeCompare(b.name, locale)),
    [geo.countries, countryName, locale],
  );

  // The choice being edited; null until the first change, so a refetch shows the saved state.
  const [draft, setDraft] = useState<string[] | null>(null);
  const selected = draft ?? geo.blocked;
  const isDirty =
    draft !== null &&
    (draft.length !== geo.blocked.length || draft.some((code) => !geo.blocked.includes(code)));
  const [search, setSearch] = useState('');
  const [isBlockedOnly, setBlockedOnly] = useState(false);

  const saveMutation = useSetGeoControls(tenant, {
    onSuccess: () => {
      setDraft(null);
      showSuccess(t('policyObjects.geo.saved', 'Blocked countries saved.'));
    },
    onError: (error) => {
      if (!failures.capture(error)) showMutationError(t, error);
    },
  });

  const toggle = (code: string, isChecked: boolean) => {
    failures.clear();
    setDraft((current) => {
      const base = current ?? geo.blocked;
      return isChecked ? [...base.filter((c) => c !== code), code] : base.filter((c) => c !== code);
    });
  };

  const needle = search.trim().toLowerCase();
  const shown = countries.filter(
    (country) =>
      (!isBlockedOnly || selected.includes(country.code)) &&
      (!needle || country.name.toLowerCase().includes(needle) || country.code.toLowerCase() === needle),
  );
  const selectedSorted = [...selected].sort((a, b) => countryName(a).localeCompare(countryName(b), locale));

  return (
    <Stack gap="lg">
      <GeoLookup countryName={countryName} blocked={geo.blocked} />
      <PolicyTestFailuresAlert failures={failures.failures} onClose={failures.clear} />
      <Stack gap="xs">
        <Group justify="space-between" align="center">
          <Text fw={500} aria-live="polite">
            {t('policyObjects.geo.selectedCount', {
              count: selected.length,
              defaultValue_one: '{{count}} country blocked',
              defaultValue_other: '{{count}} countries blocked',
            })}
            {isDirty ? (
              <Text span c="orange" size="sm" ml="xs">
                {t('policyObjects.geo.unsaved', '(not saved yet)')}
              </Text>
            ) : null}
          </Text>
          {canUpdate ? (
            <Group gap="sm">
              <Button
                variant="default"
                disabled={!isDirty || saveMutation.isPending}
                onClick={() => setDraft(null)}
              >
                {t('policyObjects.geo.reset', 'Undo changes')}
              </Button>
              <Button
                disabled={!isDirty}
                loading={saveMutation.isPending}
                onClick={() => saveMutation.mutate(selected)}
              >
                {t('policyObjects.geo.save', 'Save')}
              </Button>
            </Group>
          ) : null}
        </Group>
        {selectedSorted.length > 0 ? (
          <Group gap={6} aria-label={t('policyObjects.geo.blockedList', 'Blocked countries')} role="list">
            {selectedSorted.map((code) => (
              <Pill key={code} role="listitem" size="md">
                <Group gap={2} wrap="nowrap" component="span">
                  {countryName(code)}
                  {canUpdate ? (
                    <CloseButton
                      size="xs"
                      aria-label={t('policyObjects.geo.unblock', 'Unblock {{country}}', {
                        country: countryName(code),
                      })}
                      onClick={() => toggle(code, false)}
                    />
                  ) : null}
                </Group>
              </Pill>
            ))}
          </Group>
        ) : null}
      </Stack>
      <Fieldset legend={t('policyObjects.geo.countries', 'Countries to block')}>
        <Stack gap="sm">
          <Group align="flex-end" gap="md" wrap="wrap">
            <TextInput
              type="search"
              label={t('policyObjects.geo.search', 'Find a country')}
              placeholder={t('policyObjects.geo.searchPlaceholder', 'Name or code')}
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              w={{ base: '100%', sm: 300 }}
            />
            <Switch
              label={t('policyObjects.geo.blockedOnly', 'Blocked only')}
              checked={isBlockedOnly}
              onChange={(event) => setBlockedOnly(event.currentTarget.checked)}
              mb={8}
            />
          </Group>
          {shown.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('policyObjects.geo.noMatch', 'No country matches.')}
            </Text>
          ) : (
            <ScrollArea.Autosize mah={420} type="auto" offsetScrollbars>
              <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="xs" verticalSpacing={6} p={2}>
                {shown.map((country) => (
                  <Checkbox
                    key={country.code}
                    label={
                      <>
                        {country.name}{' '}
                        <Text span c="dimmed" size="xs">
                          {country.code}
                        </Text>
                      </>
                    }
                    checked={selected.includes(country.code)}
                    disabled={!canUpdate}
                    onChange={(event) => toggle(country.code, event.currentTarget.checked)}
                  />
                ))}
              </SimpleGrid>
            </ScrollArea.Autosize>
          )}
          <Text size="xs" c="dimmed">
            {geo.database.builtAt
              ? t('policyObjects.geo.database', 'GeoIP database: {{name}}, built {{date}}.', {
                  name: geo.database.name,
                  date: formatDate(geo.database.builtAt, locale),
                })
              : t('policyObjects.geo.databaseUndated', 'GeoIP database: {{name}}.', {
                  name: geo.database.name,
                })}
          </Text>
        </Stack>
      </Fieldset>
    </Stack>
  );
}

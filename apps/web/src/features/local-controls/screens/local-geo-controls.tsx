import { MultiSelect } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { countryNamer } from '../../../lib/country-names';
import { useCountryList } from '../api/lookups';
import { ChosenList } from '../components/chosen-list';
import { type ControlFieldProps, LocalControlsFrame } from '../components/local-controls-frame';

/** The countries to block, by their names in the reader's language, searchable. */
function CountryField({ value, onChange, errors, isReadOnly }: ControlFieldProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const tenant = useWorkingTenant();
  const canLookup = useCan('policies:view');
  const countries = useCountryList(tenant, canLookup);
  const label = t('localControls.countries.label', 'Countries to block');
  // Intl's names in the reader's language, else the GeoIP database's (English), else the code.
  const nameOf = useMemo(
    () =>
      countryNamer(locale, new Map((countries.data ?? []).map((country) => [country.code, country.name]))),
    [locale, countries.data],
  );
  const data = useMemo(() => {
    const codes = new Set([...(countries.data ?? []).map((country) => country.code), ...value]);
    return [...codes]
      .map((code) => ({ value: code, label: nameOf(code) }))
      .sort((a, b) => a.label.localeCompare(b.label, locale));
  }, [countries.data, value, nameOf, locale]);

  if (!canLookup) return <ChosenList label={label} names={value.map(nameOf)} />;
  if (countries.isPending) {
    return <LoadingState label={t('localControls.countries.loading', 'Loading countries…')} />;
  }
  if (countries.isError) {
    return <ErrorState error={countries.error} onRetry={() => void countries.refetch()} />;
  }

  const problems = [
    ...(errors.list ? [errors.list] : []),
    ...Object.entries(errors.items).map(([code, message]) =>
      t('localControls.itemError', '{{name}}: {{message}}', { name: nameOf(code), message }),
    ),
  ];
  return (
    <MultiSelect
      label={label}
      description={t(
        'localControls.countries.chosen',
        '{{chosen, number}} chosen. Connections from the gateway’s LANs to addresses located there, and from there to the LANs, are refused.',
        { chosen: value.length },
      )}
      placeholder={
        value.length === 0 ? t('localControls.countries.placeholder', 'Search countries') : undefined
      }
      data={data}
      value={value}
      onChange={onChange}
      searchable
      hidePickedOptions
      clearable={!isReadOnly}
      readOnly={isReadOnly}
      nothingFoundMessage={t('localControls.countries.noMatch', 'No country matches.')}
      error={problems.length > 0 ? problems.join(' ') : undefined}
      maxDropdownHeight={320}
    />
  );
}

/**
 * `/devices/local-geo-controls`: the countries a site gateway blocks itself for the hosts on its LANs, in both
 * directions.
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <LocalControlsFrame
      field="countries"
      title={t('localControls.countries.title', 'Local geo controls')}
      description={t(
        'localControls.countries.description',
        'A site gateway refuses connections between the hosts on its LANs and VLANs and the countries chosen here itself, without the tunnel to a cybernode. It receives a change with its next bundle.',
      )}
      sectionTitle={(name) => t('localControls.countries.section', 'Countries blocked by {{name}}', { name })}
    >
      {(props) => <CountryField {...props} />}
    </LocalControlsFrame>
  );
}

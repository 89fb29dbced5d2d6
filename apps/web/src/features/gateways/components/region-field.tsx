import { Select, TextInput } from '@mantine/core';
import { GATEWAY_REGIONS, type GatewayKind } from '@palisade/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isSiteKind } from '../utils/gateway-facts';
import { useRegionLabels } from './labels';

/** Props of {@link RegionField}: the kind decides the field, the rest is Mantine's `getInputProps`. */
export interface RegionFieldProps {
  kind: GatewayKind;
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
}

/**
 * Where a gateway is: a cloud region to choose for a cybernode (virtual or not), the site's own name for a site
 * gateway.
 */
export function RegionField({ kind, value, onChange, error }: RegionFieldProps) {
  const { t } = useTranslation();
  const labels = useRegionLabels();
  if (isSiteKind(kind)) {
    return (
      <TextInput
        label={t('gateways.form.site', 'Site / location')}
        description={t('gateways.form.siteHint', 'Where the gateway stands, e.g. “Berlin office”.')}
        required
        maxLength={64}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error}
      />
    );
  }
  const data: Array<{ value: string; label: string }> = GATEWAY_REGIONS.map((region) => ({
    value: region,
    label: `${labels[region]} (${region})`,
  }));
  // A region the list does not know (set before the list changed) stays choosable.
  if (value && !(GATEWAY_REGIONS as readonly string[]).includes(value)) data.push({ value, label: value });
  return (
    <Select
      label={t('gateways.form.region', 'Region')}
      placeholder={t('gateways.form.regionPlaceholder', 'Choose a region')}
      required
      data={data}
      allowDeselect={false}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
      error={error}
    />
  );
}

import { Badge, Text } from '@mantine/core';
import type { InternalDeviceSource } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

// The words and badges of the internal devices screens. Every badge carries its state in words; the colour only
// repeats it.

/** The translated sources of a host: a DHCP lease or the ARP table. */
export function useSourceLabels(): Record<InternalDeviceSource, string> {
  const { t } = useTranslation();
  return {
    dhcp: t('internalDevices.source.dhcp', 'DHCP lease'),
    arp: t('internalDevices.source.arp', 'ARP table'),
  };
}

/** Active (seen within the last 10 minutes) or inactive, as text on a colour badge. */
export function ActivityBadge({ isActive }: { isActive: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={isActive ? 'green' : 'gray'} variant="light" radius="sm" miw="max-content">
      {isActive ? t('internalDevices.active', 'Active') : t('internalDevices.inactive', 'Inactive')}
    </Badge>
  );
}

/** A value in monospace (addresses), or a dimmed dash. */
export function Mono({ value }: { value: string | null }) {
  if (!value) {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Text span size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
      {value}
    </Text>
  );
}

/** A text, or a dimmed "Unknown" when there is none (the vendor of a private address, a host without a name). */
export function OrUnknown({ value, unknown }: { value: string | null; unknown?: string }) {
  const { t } = useTranslation();
  if (value) return <>{value}</>;
  return (
    <Text span size="sm" c="dimmed">
      {unknown ?? t('internalDevices.unknown', 'Unknown')}
    </Text>
  );
}

/** The address of a host's page. */
export function internalDevicePath(id: string): string {
  return `/devices/internal-devices/${encodeURIComponent(id)}`;
}

/** The address of a site gateway's device page. */
export function gatewayDevicePath(gatewayId: string): string {
  return `/devices/${encodeURIComponent(gatewayId)}`;
}

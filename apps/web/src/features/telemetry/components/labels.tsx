import { Text } from '@mantine/core';
import type { ConnectionAction, DeviceEventAction } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { formatLargeBytes } from '../utils/format-bytes';

/** The translated connection actions. */
export function useConnectionActionLabels(): Record<ConnectionAction, string> {
  const { t } = useTranslation();
  return {
    connected: t('telemetry.actions.connected', 'Connected'),
    disconnected: t('telemetry.actions.disconnected', 'Disconnected'),
    tunnel_up: t('telemetry.actions.tunnel_up', 'Tunnel up'),
    tunnel_down: t('telemetry.actions.tunnel_down', 'Tunnel down'),
  };
}

/** The translated device event actions. */
export function useDeviceEventActionLabels(): Record<DeviceEventAction, string> {
  const { t } = useTranslation();
  return {
    enrolled: t('telemetry.actions.enrolled', 'Enrolled'),
    key_rotated: t('telemetry.actions.key_rotated', 'Key rotated'),
    posture_changed: t('telemetry.actions.posture_changed', 'Posture changed'),
    upgraded: t('telemetry.actions.upgraded', 'Agent upgraded'),
  };
}

/** The language the screens format in. */
export function useLocale(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? i18n.language;
}

/** Renders a byte count readably: "512 bytes", "1.5 MB" (decimal units, in the language's number format). */
export function useFormatBytes(): (bytes: number) => string {
  const { t } = useTranslation();
  const locale = useLocale();
  return (bytes) =>
    formatLargeBytes(bytes, locale) ??
    t('telemetry.bytes', {
      count: bytes,
      defaultValue_one: '{{count, number}} byte',
      defaultValue_other: '{{count, number}} bytes',
    });
}

/** A gateway, user or device by name; a dash when the event names none (unknown, or deleted since). */
export function NamedCell({ named }: { named: { id: string; name: string } | null }) {
  return named ? (
    <Text span size="sm">
      {named.name || named.id}
    </Text>
  ) : (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
}

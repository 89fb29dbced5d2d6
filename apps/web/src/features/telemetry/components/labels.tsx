import { Text, Tooltip } from '@mantine/core';
import {
  type ConnectionAction,
  type DeviceEventAction,
  type DurationUnit,
  formatDurationText,
  formatRelativeTime,
} from '@palisade/contracts';
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

/** Renders a duration in days, hours, minutes and seconds (spec §9) with the language's unit names. */
export function useFormatDuration(): (ms: number) => string {
  const { t } = useTranslation();
  const units: Record<DurationUnit, (count: number) => string> = {
    days: (count) => t('telemetry.duration.days', '{{count, number}}d', { count }),
    hours: (count) => t('telemetry.duration.hours', '{{count, number}}h', { count }),
    minutes: (count) => t('telemetry.duration.minutes', '{{count, number}}m', { count }),
    seconds: (count) => t('telemetry.duration.seconds', '{{count, number}}s', { count }),
  };
  return (ms) => formatDurationText(ms, (unit, value) => units[unit](value));
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

/** A date and time in full, in the language's format and the browser's time zone. */
export function useFormatDateTime(style: 'medium' | 'full' = 'medium'): (iso: string) => string {
  const locale = useLocale();
  const format = new Intl.DateTimeFormat(locale, { dateStyle: style, timeStyle: 'medium' });
  return (iso) => format.format(new Date(iso));
}

/** When an event happened, relative ("5 minutes ago", spec §9), with the date and time in a tooltip. */
export function EventTime({ at }: { at: string }) {
  const locale = useLocale();
  const absolute = useFormatDateTime()(at);
  return (
    <Tooltip label={absolute} withArrow>
      <Text component="time" dateTime={at} size="sm" title={absolute} tabIndex={0}>
        {formatRelativeTime(Date.parse(at), Date.now(), locale)}
      </Text>
    </Tooltip>
  );
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

import type { ReportKind, ReportSchedule, ReportScheduleInput } from '@palisade/contracts';
import { formatWeekday, userTimeZone } from '../../../lib/format-time';

/** The schedule form's values: Mantine's selects hold strings. */
export interface ScheduleFormValues {
  weekday: string;
  hour: string;
  timezone: string;
  recipients: string[];
  language: 'en' | 'de';
  enabled: boolean;
}

/** The browser's time zone, else UTC. */
export const browserTimeZone = userTimeZone;

/** Every IANA time zone the browser knows, with UTC first. */
export function timeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [browserTimeZone()];
  return ['UTC', ...zones.filter((zone) => zone !== 'UTC')];
}

/** A new schedule: Mondays at 08:00 in the browser's zone, in the console's language. */
export function scheduleToFormValues(
  schedule: ReportSchedule | undefined,
  language: string,
): ScheduleFormValues {
  if (!schedule) {
    return {
      weekday: '1',
      hour: '8',
      timezone: browserTimeZone(),
      recipients: [],
      language: language.startsWith('de') ? 'de' : 'en',
      enabled: true,
    };
  }
  return {
    weekday: String(schedule.weekday),
    hour: String(schedule.hour),
    timezone: schedule.timezone,
    recipients: schedule.recipients,
    language: schedule.language,
    enabled: schedule.enabled,
  };
}

export const scheduleFormToInput =
  (kind: ReportKind) =>
  (values: ScheduleFormValues): ReportScheduleInput => ({
    kind,
    weekday: Number(values.weekday),
    hour: Number(values.hour),
    timezone: values.timezone,
    recipients: values.recipients,
    language: values.language,
    enabled: values.enabled,
  });

/** Weekday 0 (Sunday) … 6 in the order a week is shown: Monday first. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0] as const;

/** The name of a weekday (0 Sunday) in a locale. */
export function weekdayName(weekday: number, locale: string): string {
  return formatWeekday(weekday, locale);
}

/** `08:00` */
export const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

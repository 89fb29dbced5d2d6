import { Text, Tooltip } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { relativeTimeChangesIn, type TimeInput, toTimestamp, useFormatters } from '../../lib/format-time';

/** Props of {@link RelativeTime}. */
export interface RelativeTimeProps {
  /** The moment (ISO text as the API gives it, milliseconds or a Date); null when there is none. */
  value: TimeInput;
  /** What shows, dimmed, without a moment: a dash by default ("Never", "Not used yet"…). */
  empty?: ReactNode;
  /** Also shows the full date and time in a tooltip, and makes the time focusable so keyboards reach it. */
  withTooltip?: boolean;
  /** A Mantine font size; without one the time takes its surroundings' font. */
  size?: 'xs' | 'sm' | 'md';
}

/**
 * The current time for the relative text of `at`: the component renders again when that text changes (see
 * relativeTimeChangesIn), one timer per time, so a list of them costs nothing while nothing changes.
 */
function useNowFor(at: number | null): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const wait = relativeTimeChangesIn(at, Date.now());
    if (wait === null) return;
    const timer = setTimeout(() => setTick(tick + 1), wait);
    return () => clearTimeout(timer);
  }, [at, tick]);
  return Date.now();
}

/**
 * A moment as relative text ("5 minutes ago", "in 30 days"; spec §9) in a `<time>` element, with the full date
 * and time (with seconds) as its title; the text follows the clock and the reader's language.
 */
export function RelativeTime({ value, empty = '—', withTooltip = false, size }: RelativeTimeProps) {
  const format = useFormatters();
  const at = toTimestamp(value);
  const now = useNowFor(at);
  if (at === null) {
    return (
      <Text span size={size ?? 'sm'} c="dimmed">
        {empty}
      </Text>
    );
  }
  const absolute = format.dateTime(at, { timeStyle: 'medium' });
  const time = (
    <Text
      component="time"
      dateTime={typeof value === 'string' ? value : new Date(at).toISOString()}
      title={absolute}
      size={size}
      inherit={size === undefined}
      tabIndex={withTooltip ? 0 : undefined}
    >
      {format.relative(at, now)}
    </Text>
  );
  return withTooltip ? (
    <Tooltip label={absolute} withArrow>
      {time}
    </Tooltip>
  ) : (
    time
  );
}

import { Group, Progress, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../components/charts/format';
import { percentOf } from '../utils/format';
import { useLocale } from './labels';

/** Props of {@link SeatsMeter}. */
export interface SeatsMeterProps {
  seats: number;
  /** End users: each takes a seat. */
  users: number;
  /** Devices: shown, not limited. */
  devices: number;
}

/**
 * Seats used of seats purchased as a progress bar whose accessible name says the figures (a bar alone is a
 * picture); full or over the limit is said in words too, not by colour alone.
 */
export function SeatsMeter({ seats, users, devices }: SeatsMeterProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const labelId = useId();
  const percent = percentOf(users, seats);
  const isFull = users >= seats;
  const label = t('subscriptions.seats.label', '{{used}} of {{seats}} seats used ({{percent}} %)', {
    used: formatCount(users, locale),
    seats: formatCount(seats, locale),
    percent: formatCount(percent, locale),
  });
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500} id={labelId}>
          {label}
        </Text>
        {isFull ? (
          <Text size="sm" fw={700}>
            {users > seats
              ? t('subscriptions.seats.over', 'Over the limit: no more users can be added.')
              : t('subscriptions.seats.full', 'All seats are in use: add seats to add users.')}
          </Text>
        ) : null}
      </Group>
      {/* The track is the progress bar (the filled part can be too thin to see, or to point at). */}
      <Progress.Root
        size="lg"
        radius="sm"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(percent, 100)}
        aria-valuetext={label}
      >
        <Progress.Section
          value={Math.min(percent, 100)}
          color={isFull ? 'red' : percent >= 80 ? 'orange' : undefined}
          withAria={false}
        />
      </Progress.Root>
      <Text size="sm" c="dimmed">
        {t('subscriptions.seats.devices', {
          count: devices,
          defaultValue_one: '{{count, number}} device (devices do not take seats)',
          defaultValue_other: '{{count, number}} devices (devices do not take seats)',
        })}
      </Text>
    </Stack>
  );
}

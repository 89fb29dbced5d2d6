import { Box, Card, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount, useChartLocale } from './format';
import { useVerdictLabels } from './labels';

/** The two segments of a bar: decisions allowed and decisions blocked. */
export type Verdict = 'allowed' | 'blocked';

/** The colours of the verdicts, from the theme (so they follow the light and dark scheme). */
export const VERDICT_COLORS: Record<Verdict, string> = { allowed: 'teal.6', blocked: 'red.6' };
const cssColor = (color: string) => `var(--mantine-color-${color.replace('.', '-')})`;

/** One bar: what it stands for, and its allowed and blocked counts. */
export interface BarListItem {
  /** What the drill-down filters on (an id, a host name, a category…). */
  key: string;
  /** What is shown. */
  label: string;
  allowed: number;
  blocked: number;
}

/** Props of {@link BarList}. */
export interface BarListProps {
  /** The list's heading. */
  title: string;
  /** The heading level (2 by default: a section of the screen; 3 inside a section). */
  headingOrder?: 2 | 3 | 4;
  /** What the numbers count, stated under the heading ("Requests in the time range"). */
  unit: string;
  items: BarListItem[];
  /** The segments drawn, in order; both by default. A list of blocked decisions only shows `['blocked']`. */
  verdicts?: readonly Verdict[];
  /** A bar or one of its segments was chosen: the item and, for a segment, its verdict. */
  onSelect: (item: BarListItem, verdict?: Verdict) => void;
  /** Shown when there are no items. */
  emptyText: string;
  /** Shown instead of the bars while they load or when they failed (the section stays the same). */
  status?: ReactNode;
}

const BOTH: readonly Verdict[] = ['allowed', 'blocked'];

/**
 * A ranked list of bars, each split into its allowed and blocked segments, sized against the largest. Every bar
 * is a set of buttons — the name (all its decisions) and each segment (its decisions of that verdict) — so the
 * drill-down works with the keyboard and a screen reader as with the mouse. The numbers are written beside the
 * bars with the language's thousands grouping.
 */
export function BarList({
  title,
  headingOrder = 2,
  unit,
  items,
  verdicts = BOTH,
  onSelect,
  emptyText,
  status,
}: BarListProps) {
  const { t } = useTranslation();
  const locale = useChartLocale();
  const headingId = useId();
  const verdictLabels = useVerdictLabels();
  const total = (item: BarListItem) => verdicts.reduce((sum, verdict) => sum + item[verdict], 0);
  const max = Math.max(1, ...items.map(total));

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" gap="xs" mb="sm">
        <Stack gap={2}>
          <Title order={headingOrder} size="h4" id={headingId}>
            {title}
          </Title>
          <Text size="xs" c="dimmed">
            {unit}
          </Text>
        </Stack>
        {verdicts.length > 1 ? (
          <Group gap="sm" aria-hidden>
            {verdicts.map((verdict) => (
              <Group key={verdict} gap={4} wrap="nowrap">
                <Box
                  w={10}
                  h={10}
                  style={{ borderRadius: 2, background: cssColor(VERDICT_COLORS[verdict]) }}
                />
                <Text size="xs">{verdictLabels[verdict]}</Text>
              </Group>
            ))}
          </Group>
        ) : null}
      </Group>
      {status ? (
        status
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {emptyText}
        </Text>
      ) : (
        <Stack component="ol" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
          {items.map((item) => {
            const sum = total(item);
            return (
              <Box component="li" key={item.key}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <UnstyledButton
                    onClick={() => onSelect(item)}
                    style={{ overflowWrap: 'anywhere', textAlign: 'start' }}
                    aria-label={t('dashboards.barList.all', '{{label}}: {{value}} — show the events', {
                      label: item.label,
                      value: formatCount(sum, locale),
                    })}
                  >
                    <Text size="sm" fw={500} td="underline" style={{ textUnderlineOffset: 3 }}>
                      {item.label}
                    </Text>
                  </UnstyledButton>
                  <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatCount(sum, locale)}
                  </Text>
                </Group>
                <Group gap={0} wrap="nowrap" mt={4} h={10} w={`${(sum / max) * 100}%`} miw={sum > 0 ? 6 : 0}>
                  {verdicts
                    .filter((verdict) => item[verdict] > 0)
                    .map((verdict) => (
                      <UnstyledButton
                        key={verdict}
                        onClick={() => onSelect(item, verdict)}
                        h="100%"
                        miw={6}
                        w={`${(item[verdict] / sum) * 100}%`}
                        style={{ background: cssColor(VERDICT_COLORS[verdict]), borderRadius: 2 }}
                        aria-label={t('dashboards.barList.segment', '{{verdict}}, {{label}}: {{value}}', {
                          verdict: verdictLabels[verdict],
                          label: item.label,
                          value: formatCount(item[verdict], locale),
                        })}
                        title={`${verdictLabels[verdict]}: ${formatCount(item[verdict], locale)}`}
                      />
                    ))}
                </Group>
              </Box>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}

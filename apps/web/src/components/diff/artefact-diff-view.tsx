import { Badge, Button, Group, Stack, Text, Title, type TitleOrder } from '@mantine/core';
import type { ArtefactDiff, ArtefactName } from '@palisade/contracts';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './artefact-diff-view.module.css';
import { type DiffLine, parseUnifiedDiff } from './parse-unified-diff';

/** How many lines of a diff are rendered at first, and added per "Show more": a long diff renders step by step. */
export const DIFF_LINES_STEP = 400;

/** The translated names of the gateway artefacts. */
function useArtefactLabels(): Record<ArtefactName, string> {
  const { t } = useTranslation();
  return {
    wireguard: t('gateways.diff.artefact.wireguard', 'WireGuard (tunnels)'),
    nftables: t('gateways.diff.artefact.nftables', 'nftables (firewall)'),
    rpz: t('gateways.diff.artefact.rpz', 'RPZ (DNS filter)'),
    rpzAudiences: t('gateways.diff.artefact.rpzAudiences', 'RPZ for some users (DNS filter by audience)'),
    squid: t('gateways.diff.artefact.squid', 'Squid (web proxy)'),
  };
}

/** One line in the `<pre>`: added lines in `<ins>`, removed ones in `<del>`, each with its leading + or - kept. */
function Line({ line }: { line: DiffLine }) {
  const className = `${classes.line} ${line.kind === 'context' ? '' : classes[line.kind]}`;
  const text = `${line.text}\n`;
  if (line.kind === 'added') return <ins className={className}>{text}</ins>;
  if (line.kind === 'removed') return <del className={className}>{text}</del>;
  return <span className={className}>{text}</span>;
}

/** The lines of one diff, the first {@link DIFF_LINES_STEP} at once and more on request. */
function DiffLines({ lines, label }: { lines: DiffLine[]; label: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(DIFF_LINES_STEP);
  const rest = lines.length - shown;
  return (
    <Stack gap="xs">
      {/* Scrolls on its own, so it takes the keyboard focus; a region named after the artefact. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard. */}
      <section className={classes.scroller} tabIndex={0} aria-label={label}>
        <pre className={classes.pre}>
          {lines.slice(0, shown).map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a diff have no identity but their place.
            <Line key={index} line={line} />
          ))}
        </pre>
      </section>
      {rest > 0 ? (
        <Group gap="sm">
          <Text size="xs" c="dimmed">
            {t('gateways.diff.linesShown', {
              defaultValue: '{{shown, number}} of {{total, number}} lines shown.',
              shown,
              total: lines.length,
            })}
          </Text>
          <Button size="compact-sm" variant="default" onClick={() => setShown((n) => n + DIFF_LINES_STEP)}>
            {t('gateways.diff.showMore', {
              count: Math.min(rest, DIFF_LINES_STEP),
              defaultValue_one: 'Show {{count, number}} more line',
              defaultValue_other: 'Show {{count, number}} more lines',
            })}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/** Props of {@link ArtefactDiffView}. */
export interface ArtefactDiffViewProps {
  /** The artefacts' diffs, in the order to show them. */
  artefacts: ArtefactDiff[];
  /** The level of each artefact's heading: 3 under a section's h2 (the default). */
  headingOrder?: TitleOrder;
}

/** One artefact: its name, what changed in numbers and words, and the diff itself when asked for. */
function ArtefactPanel({ artefact, headingOrder }: { artefact: ArtefactDiff; headingOrder: TitleOrder }) {
  const { t } = useTranslation();
  const labels = useArtefactLabels();
  const label = labels[artefact.artefact];
  const lines = useMemo(() => parseUnifiedDiff(artefact.diff), [artefact.diff]);
  const isUnchanged = artefact.added === 0 && artefact.removed === 0;
  const canShow = !artefact.isTooLarge && lines.length > 0;
  // A short diff is open at once; a long one is rendered only when asked for.
  const [isOpen, setOpen] = useState(canShow && lines.length <= DIFF_LINES_STEP);
  const panelId = useId();
  const headingId = useId();

  return (
    <Stack component="section" gap="xs" aria-labelledby={headingId}>
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Group gap="sm" wrap="wrap">
          <Title order={headingOrder} size="h5" id={headingId}>
            {label}
          </Title>
          {isUnchanged ? (
            <Badge variant="light" color="gray" radius="sm">
              {t('gateways.diff.unchanged', 'Unchanged')}
            </Badge>
          ) : (
            <>
              <Badge variant="light" color="green" radius="sm">
                {t('gateways.diff.added', {
                  count: artefact.added,
                  defaultValue_one: '+{{count, number}} line added',
                  defaultValue_other: '+{{count, number}} lines added',
                })}
              </Badge>
              <Badge variant="light" color="red" radius="sm">
                {t('gateways.diff.removed', {
                  count: artefact.removed,
                  defaultValue_one: '−{{count, number}} line removed',
                  defaultValue_other: '−{{count, number}} lines removed',
                })}
              </Badge>
            </>
          )}
        </Group>
        {canShow ? (
          <Button
            size="compact-sm"
            variant="subtle"
            aria-expanded={isOpen}
            aria-controls={isOpen ? panelId : undefined}
            onClick={() => setOpen((open) => !open)}
          >
            {isOpen
              ? t('gateways.diff.hide', 'Hide changes')
              : t('gateways.diff.show', {
                  count: lines.length,
                  defaultValue_one: 'Show changes ({{count, number}} line)',
                  defaultValue_other: 'Show changes ({{count, number}} lines)',
                })}
          </Button>
        ) : null}
      </Group>
      {artefact.isTooLarge ? (
        <Text size="sm" c="dimmed">
          {t(
            'gateways.diff.tooLarge',
            'Too many lines changed to show them here; only the numbers of added and removed lines are known.',
          )}
        </Text>
      ) : null}
      {canShow && isOpen ? (
        <div id={panelId}>
          <DiffLines
            lines={lines}
            label={t('gateways.diff.linesLabel', 'Changes to {{artefact}}', { artefact: label })}
          />
        </div>
      ) : null}
    </Stack>
  );
}

/**
 * The changes of a bundle's artefacts (nftables, RPZ, Squid…) as unified diffs: per artefact its name, the added
 * and removed line counts, and a `<pre>` with the lines — added ones in `<ins>` and removed ones in `<del>`, each
 * keeping its leading `+` or `-`, so they differ by more than colour. A diff too large to work out says so
 * instead; a long one is rendered only when opened and then step by step. Shared: the gateways' bundle history
 * and the policy editor's save preview both show it.
 */
export function ArtefactDiffView({ artefacts, headingOrder = 3 }: ArtefactDiffViewProps) {
  return (
    <Stack gap="lg">
      {artefacts.map((artefact) => (
        <ArtefactPanel key={artefact.artefact} artefact={artefact} headingOrder={headingOrder} />
      ))}
    </Stack>
  );
}

import { Badge, Box, List, Paper, Group as Row, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  DEFAULT_SESSION_QOS,
  type Decision,
  LAYERS,
  type SimulationResult,
  type TraceStep,
} from '@palisade/contracts';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RuleRefText } from '../../../components/policy/rule-ref';
import { useWorkingTenant } from '../../../lib/auth';
import { countryNamer } from '../../../lib/country-names';
import { catalogName } from '../../../lib/policy-names';
import { useCategories, useFeeds } from '../api/lookups';
import { CheckIcon, CrossIcon, DashIcon, DotIcon } from '../components/icons';
import { translateMessage, useDecisionLabels, useLayerLabels, useOutcomeLabels } from '../components/labels';
import { type TraceNames, traceStepValues } from './trace-values';

/** The decision as a big badge: colour, icon and text (never the colour alone). */
export function DecisionBadge({ decision, size = 'xl' }: { decision: Decision; size?: 'sm' | 'md' | 'xl' }) {
  const labels = useDecisionLabels();
  const isAllowed = decision === 'allow';
  return (
    <Badge
      size={size}
      radius="sm"
      color={isAllowed ? 'green' : 'red'}
      variant="filled"
      leftSection={
        isAllowed ? (
          <CheckIcon size={size === 'xl' ? 18 : 12} />
        ) : (
          <CrossIcon size={size === 'xl' ? 18 : 12} />
        )
      }
    >
      {labels[decision]}
    </Badge>
  );
}

const OUTCOME_COLOR: Record<TraceStep['outcome'], string> = {
  matched: 'teal',
  'no-match': 'gray',
  skipped: 'gray',
  default: 'blue',
};

function OutcomeIcon({ outcome }: { outcome: TraceStep['outcome'] }) {
  if (outcome === 'matched') return <CheckIcon size={14} />;
  if (outcome === 'default') return <DotIcon size={14} />;
  return <DashIcon size={14} />;
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Box component="dd" m={0} fz="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </div>
  );
}

/**
 * Names for what the engine reports by stored name or code: web categories and feeds as the object screens name
 * them (shipped ones translated, by their id), countries in the reader's language.
 */
function useTraceNames(): TraceNames {
  const { t, i18n } = useTranslation();
  const tenant = useWorkingTenant();
  const categories = useCategories(tenant);
  const feeds = useFeeds(tenant);
  const locale = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const categoryIds = new Map((categories.data ?? []).map((c) => [c.name, c.id]));
    const feedIds = new Map((feeds.data ?? []).map((f) => [f.name, f.id]));
    const byName = (kind: 'category' | 'feed', ids: Map<string, string>) => (name: string) => {
      const id = ids.get(name);
      return id ? catalogName(t, kind, id, name) : name;
    };
    return {
      category: byName('category', categoryIds),
      feed: byName('feed', feedIds),
      country: countryNamer(locale, new Map()),
      locale,
    };
  }, [categories.data, feeds.data, locale, t]);
}

/** Props of {@link SimulationResultView}. */
export interface SimulationResultViewProps {
  result: SimulationResult;
  /** More content under the decision (the "Pin as test" form). */
  actions?: ReactNode;
}

/**
 * The answer of a simulation: the decision, the rule that decided, what else it set (rewrite, gateway, QoS),
 * what the request resolved to, and the full trace grouped by layer in evaluation order.
 */
export function SimulationResultView({ result, actions }: SimulationResultViewProps) {
  const { t } = useTranslation();
  const layers = useLayerLabels();
  const outcomes = useOutcomeLabels();
  const names = useTraceNames();
  const none = t('policies.simulator.none', '—');
  const list = (items: string[]) => (items.length > 0 ? items.join(', ') : none);
  const country = (code: string | null) => (code ? names.country(code) : none);
  const { context } = result;

  return (
    <Stack gap="lg" aria-live="polite">
      <Paper withBorder p="md" radius="sm">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('policies.simulator.resultTitle', 'Decision')}
          </Title>
          <Row gap="md" align="center">
            <DecisionBadge decision={result.decision} />
            {result.layer ? (
              <Text size="sm" c="dimmed">
                {t('policies.simulator.inLayer', 'in the {{layer}} layer', { layer: layers[result.layer] })}
              </Text>
            ) : null}
          </Row>
          <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="sm" m={0}>
            <Item label={t('policies.simulator.decidedBy', 'Decided by')}>
              {result.rule ? (
                <RuleRefText rule={result.rule} />
              ) : (
                t('policies.decisions.noRuleMatched', 'No rule matched — allowed by default')
              )}
            </Item>
            {result.rewrite ? (
              <Item label={t('policies.simulator.rewrite', 'Rewritten to')}>{result.rewrite}</Item>
            ) : null}
            {result.gateway ? (
              <Item label={t('policies.simulator.gateway', 'Routed through')}>{result.gateway}</Item>
            ) : null}
            {/* QoS classifies after the layers that decide, so it is told last. */}
            <Item label={t('policies.simulator.qos', 'QoS class')}>
              {result.qos === DEFAULT_SESSION_QOS
                ? t('policies.simulator.defaultQos', 'Default')
                : result.qos}
            </Item>
          </SimpleGrid>
          {actions}
        </Stack>
      </Paper>

      <section aria-labelledby="simulation-context">
        <Title order={3} size="h5" id="simulation-context" mb="xs">
          {t('policies.simulator.contextTitle', 'The request resolved to')}
        </Title>
        <SimpleGrid component="dl" cols={{ base: 2, sm: 3 }} spacing="sm" m={0}>
          <Item label={t('policies.simulator.host', 'Host')}>{context.host ?? none}</Item>
          <Item label={t('policies.simulator.path', 'Path')}>{context.path ?? none}</Item>
          <Item label={t('policies.simulator.ip', 'IP address')}>{context.ip ?? none}</Item>
          <Item label={t('policies.simulator.port', 'Port')}>{context.port ?? none}</Item>
          <Item label={t('policies.simulator.sourceCountry', 'Source country')}>
            {country(context.sourceCountry)}
          </Item>
          <Item label={t('policies.simulator.destinationCountry', 'Destination country')}>
            {country(context.destinationCountry)}
          </Item>
          <Item label={t('policies.simulator.categories', 'Categories')}>
            {list(context.categories.map(names.category))}
          </Item>
          <Item label={t('policies.simulator.apps', 'Applications')}>{list(context.apps)}</Item>
          <Item label={t('policies.simulator.groups', "User's groups")}>{list(context.groups)}</Item>
        </SimpleGrid>
      </section>

      <section aria-labelledby="simulation-trace">
        <Title order={3} size="h5" id="simulation-trace" mb="xs">
          {t('policies.simulator.traceTitle', 'Trace')}
        </Title>
        {result.trace.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('policies.simulator.noTrace', 'No rule was evaluated.')}
          </Text>
        ) : (
          <Stack gap="md">
            {LAYERS.filter((layer) => result.trace.some((step) => step.layer === layer)).map((layer) => (
              <div key={layer}>
                <Title order={4} size="h6" mb={4}>
                  {layers[layer]}
                </Title>
                <List type="ordered" spacing={6} size="sm" withPadding>
                  {result.trace
                    .filter((step) => step.layer === layer)
                    .map((step, index) => (
                      <List.Item
                        // The trace is an ordered log; its position is its identity.
                        // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id of their own
                        key={index}
                        data-testid="trace-step"
                      >
                        <Row gap={8} wrap="wrap" align="center">
                          <Badge
                            size="sm"
                            variant="light"
                            color={OUTCOME_COLOR[step.outcome]}
                            leftSection={<OutcomeIcon outcome={step.outcome} />}
                          >
                            {outcomes[step.outcome]}
                          </Badge>
                          {step.rule ? <RuleRefText rule={step.rule} /> : null}
                        </Row>
                        <Text size="xs" c="dimmed" mt={2}>
                          {translateMessage(
                            t,
                            step.reason,
                            traceStepValues(t, step, result.trace, names),
                            step.reason,
                          )}
                        </Text>
                      </List.Item>
                    ))}
                </List>
              </div>
            ))}
          </Stack>
        )}
      </section>
    </Stack>
  );
}

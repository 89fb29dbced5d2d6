import { DEFAULT_SESSION_QOS, type TraceStep } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { formatDateTime, toTimestamp } from '../../../lib/format-time';
import { ruleDisplayName } from '../../../lib/policy-names';

/** How the simulator names what the engine reports by its stored (English) name or code. */
export interface TraceNames {
  /** A web category by the name the engine gives (shipped categories in English), in the reader's language. */
  category: (name: string) => string;
  /** A threat-intel feed by the name the engine gives, in the reader's language. */
  feed: (name: string) => string;
  /** A country by its ISO code, in the reader's language. */
  country: (code: string) => string;
  locale: string;
}

/** Where a matched entry came from, as the engine appends it: `casino.example (category:Gambling)`. */
const ORIGIN = /^(.*) \((category|feed|app):(.+)\)$/;

/**
 * The values of one trace step as the screens name them: matched entries with the category, feed or app they
 * came from ("casino.example (Web category: Glücksspiel)"), the rule that decided earlier by its shown name,
 * countries by name, the default QoS class as "Default" and times in the reader's language (UTC, as
 * schedules are). Values the engine's messages translate themselves (layers, actions, kinds) are left as they
 * are.
 */
export function traceStepValues(
  t: TFunction,
  step: TraceStep,
  trace: readonly TraceStep[],
  names: TraceNames,
): Record<string, string> {
  const shown: Record<string, string> = { ...step.values };
  const { item, rule, country, qos, time, target, action } = step.values;
  if (item !== undefined) {
    const origin = ORIGIN.exec(item);
    if (origin) {
      const [, entry, kind, name] = origin;
      const source =
        kind === 'category'
          ? t('policies.objectKinds.category', 'Web category')
          : kind === 'feed'
            ? t('policies.objectKinds.feed', 'Threat-intel feed')
            : t('policies.objectKinds.app', 'Application');
      const named = kind === 'category' ? names.category(name) : kind === 'feed' ? names.feed(name) : name;
      shown.item = `${entry} (${source}: ${named})`;
    }
  }
  if (rule !== undefined) {
    // "Already decided by rule X": X is the rule that matched earlier in the same layer.
    const winner = trace.find(
      (other) => other.layer === step.layer && other.outcome === 'matched' && other.rule?.ruleName === rule,
    )?.rule;
    if (winner) shown.rule = ruleDisplayName(t, winner);
  }
  if (country !== undefined && country !== '') shown.country = names.country(country);
  if (qos === DEFAULT_SESSION_QOS) shown.qos = t('policies.simulator.defaultQos', 'Default');
  if (action === 'qos' && target === DEFAULT_SESSION_QOS) {
    shown.target = t('policies.simulator.defaultQos', 'Default');
  }
  if (time !== undefined) {
    if (toTimestamp(time) !== null)
      shown.time = `${formatDateTime(time, names.locale, { timeZone: 'UTC' })} UTC`;
  }
  return shown;
}

import type { Decision, DecisionLayer, TelemetryDimension, TelemetrySource } from '@palisade/contracts';

/**
 * The decisions one chart segment stands for, as `listDecisionEvents` and `exportDecisionEvents` take them: the
 * dashboard's range and the filters of the segment (its layer, verdict, the dimension's value).
 */
export interface DecisionFilters {
  from: string;
  to: string;
  layer?: DecisionLayer;
  decision?: Decision;
  destination?: string;
  category?: string;
  app?: string;
  country?: string;
  threat?: string;
  rule?: string;
  userId?: string;
  deviceId?: string;
  gatewayId?: string;
  /** Only the decisions the gateways saw (`gateway`) or only simulated ones; both when absent. */
  source?: TelemetrySource;
}

/** What a drill-down drawer shows: a title saying what was clicked, and the filters of its decisions. */
export interface DecisionDrill {
  title: string;
  filters: DecisionFilters;
}

/**
 * The event filter of one value of a top list's dimension: users, devices and gateways by id, the others by the
 * value itself.
 */
export function dimensionFilter(dimension: TelemetryDimension, value: string): Partial<DecisionFilters> {
  switch (dimension) {
    case 'user':
      return { userId: value };
    case 'device':
      return { deviceId: value };
    case 'gateway':
      return { gatewayId: value };
    default:
      return { [dimension]: value };
  }
}

/** The two verdicts as the event filter names them. */
export const VERDICT_DECISION = { allowed: 'allow', blocked: 'block' } as const satisfies Record<
  'allowed' | 'blocked',
  Decision
>;

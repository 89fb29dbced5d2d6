import { List, Text, VisuallyHidden } from '@mantine/core';
import {
  ADD_ON_SKUS,
  type AddOnSku,
  BILLING_CYCLES,
  type BillingCycle,
  CURRENCY,
  PLAN_SKUS,
  type PlanSku,
  SUBSCRIPTION_STATUSES,
  type SubscriptionEvent,
  type SubscriptionStatus,
} from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../components/charts/format';
import { cardBrand, formatDay, formatMoney } from '../utils/format';
import { useAddOnNames, useCycleLabels, useLocale, usePlanNames, useStatusLabels } from './labels';

const isOneOf = <T extends string>(options: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (options as readonly string[]).includes(value);

const ISO_DAY = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** One changed field: its name and how it reads before and after (null: not there on that side). */
export interface FieldChange {
  field: string;
  before: string | null;
  after: string | null;
}

/**
 * How a history row's `before` and `after` read, field by field, in the console's language: plans, cycles,
 * statuses and add-ons by their names, seats as numbers, money as money, days as days, a card as "Visa •••• 4242".
 */
export function useChangeFields(): (event: Pick<SubscriptionEvent, 'before' | 'after'>) => FieldChange[] {
  const { t: th } = useTranslation('subscriptionHistory');
  const locale = useLocale();
  const planNames = usePlanNames();
  const addOnNames = useAddOnNames();
  const cycleLabels = useCycleLabels();
  const statusLabels = useStatusLabels();

  const fieldName = (field: string): string => {
    const names: Record<string, string> = {
      plan: th('fields.plan', 'Plan'),
      status: th('fields.status', 'Status'),
      billingCycle: th('fields.billingCycle', 'Billing cycle'),
      seats: th('fields.seats', 'Seats'),
      addOns: th('fields.addOns', 'Add-ons'),
      addOn: th('fields.addOn', 'Add-on'),
      paymentMethod: th('fields.paymentMethod', 'Payment method'),
      cancelAtPeriodEnd: th('fields.cancelAtPeriodEnd', 'Ends at period end'),
      trialEndsAt: th('fields.trialEndsAt', 'Trial ends'),
      currentPeriodEnd: th('fields.currentPeriodEnd', 'Period ends'),
      currentPeriodStart: th('fields.currentPeriodStart', 'Period starts'),
      renewsAt: th('fields.renewsAt', 'Renews on'),
      amount: th('fields.amount', 'Amount'),
      invoice: th('fields.invoice', 'Invoice'),
      reason: th('fields.reason', 'Reason'),
      endsAt: th('fields.endsAt', 'Ends on'),
      periodEnd: th('fields.periodEnd', 'Period ends'),
      attempt: th('fields.attempt', 'Attempt'),
      nextAttemptAt: th('fields.nextAttemptAt', 'Next attempt'),
      effectiveAt: th('fields.effectiveAt', 'Takes effect on'),
    };
    return names[field] ?? field;
  };

  const valueText = (field: string, value: unknown): string => {
    if (value === null || value === undefined) return '—';
    if (field === 'reason' && typeof value === 'string') {
      const reasons: Record<string, string> = {
        card_declined: th('reasons.card_declined', 'card declined'),
        insufficient_funds: th('reasons.insufficient_funds', 'insufficient funds'),
        processing_error: th('reasons.processing_error', 'processing error at the provider'),
      };
      return reasons[value] ?? value;
    }
    if (field === 'plan' && isOneOf<PlanSku>(PLAN_SKUS, value)) return planNames[value];
    if (field === 'status' && isOneOf<SubscriptionStatus>(SUBSCRIPTION_STATUSES, value))
      return statusLabels[value];
    if (field === 'billingCycle' && isOneOf<BillingCycle>(BILLING_CYCLES, value)) return cycleLabels[value];
    if (isOneOf<AddOnSku>(ADD_ON_SKUS, value)) return addOnNames[value];
    if (Array.isArray(value)) {
      return value.length === 0
        ? th('none', 'none')
        : value
            .map((item) => (isOneOf<AddOnSku>(ADD_ON_SKUS, item) ? addOnNames[item] : String(item)))
            .join(', ');
    }
    if (typeof value === 'boolean') return value ? th('yes', 'yes') : th('no', 'no');
    if (typeof value === 'number')
      return field === 'amount' ? formatMoney(value, CURRENCY, locale) : formatCount(value, locale);
    if (typeof value === 'string') return ISO_DAY.test(value) ? formatDay(value, locale) : value;
    if (typeof value === 'object') {
      const card = value as { brand?: unknown; last4?: unknown };
      if (typeof card.brand === 'string' && typeof card.last4 === 'string')
        return `${cardBrand(card.brand)} •••• ${card.last4}`;
      return JSON.stringify(value);
    }
    return String(value);
  };

  return ({ before, after }) => {
    const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
      // A field the same on both sides did not change.
      (field) =>
        !(before && after && field in before && field in after) ||
        JSON.stringify(before[field]) !== JSON.stringify(after[field]),
    );
    return fields.map((field) => ({
      field: fieldName(field),
      before: before && field in before ? valueText(field, before[field]) : null,
      after: after && field in after ? valueText(field, after[field]) : null,
    }));
  };
}

/** A history row's changes as a list: "Plan: Trial → Business", the arrow read as "to" by a screen reader. */
export function ChangeSummary({ changes }: { changes: FieldChange[] }) {
  const { t: th } = useTranslation('subscriptionHistory');
  if (changes.length === 0) return <Text size="sm">—</Text>;
  return (
    <List size="sm" spacing={2} listStyleType="none" m={0} p={0}>
      {changes.map((change) => (
        <List.Item key={change.field}>
          <Text span size="sm" fw={500}>
            {th('fieldLabel', '{{field}}:', { field: change.field })}
          </Text>{' '}
          {change.before !== null && change.after !== null ? (
            <>
              {change.before} <span aria-hidden="true">→</span>{' '}
              <VisuallyHidden>{th('to', 'to')}</VisuallyHidden> {change.after}
            </>
          ) : (
            (change.after ?? change.before)
          )}
        </List.Item>
      ))}
    </List>
  );
}

import { Badge } from '@mantine/core';
import {
  ADD_ONS,
  type AddOnSku,
  type BillingCycle,
  PLANS,
  type PlanSku,
  type SubscriptionStatus,
} from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useChartLocale } from '../../../components/charts/format';

/** The language the subscription screens format money, numbers and days in; re-renders when it changes. */
export const useLocale = useChartLocale;

/** The translated names of the subscription statuses. */
export function useStatusLabels(): Record<SubscriptionStatus, string> {
  const { t } = useTranslation();
  return {
    trial: t('subscriptions.status.trial', 'Trial'),
    active: t('subscriptions.status.active', 'Active'),
    past_due: t('subscriptions.status.past_due', 'Payment overdue'),
    cancelled: t('subscriptions.status.cancelled', 'Cancelled'),
    expired: t('subscriptions.status.expired', 'Expired'),
  };
}

/** The plans' names (the product names, translated where a language says them differently). */
export function usePlanNames(): Record<PlanSku, string> {
  const { t } = useTranslation();
  return {
    trial: t('subscriptions.plans.trial', PLANS.trial.name),
    essentials: t('subscriptions.plans.essentials', PLANS.essentials.name),
    business: t('subscriptions.plans.business', PLANS.business.name),
    enterprise: t('subscriptions.plans.enterprise', PLANS.enterprise.name),
  };
}

/** The add-ons' names. */
export function useAddOnNames(): Record<AddOnSku, string> {
  const { t } = useTranslation();
  return {
    xdr: t('subscriptions.addOns.xdr', ADD_ONS.xdr.name),
    private5g: t('subscriptions.addOns.private5g', ADD_ONS.private5g.name),
    extendedRetention: t('subscriptions.addOns.extendedRetention', ADD_ONS.extendedRetention.name),
  };
}

/** The billing cycles' names ("Monthly", "Yearly"). */
export function useCycleLabels(): Record<BillingCycle, string> {
  const { t } = useTranslation();
  return {
    monthly: t('subscriptions.cycle.monthly', 'Monthly'),
    yearly: t('subscriptions.cycle.yearly', 'Yearly'),
  };
}

const STATUS_COLORS: Record<SubscriptionStatus, string> = {
  trial: 'blue',
  active: 'green',
  past_due: 'orange',
  cancelled: 'gray',
  expired: 'red',
};

/** A subscription's status as translated text on a colour badge (the text carries it, not the colour). */
export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  const labels = useStatusLabels();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" radius="sm">
      {labels[status]}
    </Badge>
  );
}

import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { buildPath, ERRORS, type Subscription } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { type ReactNode, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatCount } from '../../../components/charts/format';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { DetailList } from '../../../components/ui/detail-list';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import type { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useCancelSubscription, useResumeSubscription } from '../api/change-subscription';
import { isNoSubscription, useSubscription } from '../api/get-subscription';
import { ChangePlanModal, startsPaidPeriod } from '../components/change-plan-modal';
import {
  SubscriptionStatusBadge,
  useAddOnNames,
  useCycleLabels,
  useLocale,
  usePlanNames,
} from '../components/labels';
import { PaymentHistory } from '../components/payment-history';
import { PaymentMethodModal } from '../components/payment-method-modal';
import { SeatsMeter } from '../components/seats-meter';
import { cardBrand, daysLeft, formatDay, formatMoney } from '../utils/format';

/** Why a trial has no cancel (spec §4: trial workspaces are excluded from cancel), with its end date. */
function trialReason(t: TFunction, endsOn: string | null): string {
  return endsOn
    ? t(
        'subscriptions.cancel.trialReason',
        'A trial cannot be cancelled: it ends by itself on {{date}} and nothing is charged. Choose a paid plan to keep using Palisade.',
        { date: endsOn },
      )
    : t(
        'subscriptions.cancel.trialReasonNoDate',
        'A trial cannot be cancelled: it ends by itself and nothing is charged. Choose a paid plan to keep using Palisade.',
      );
}

/** The state of the subscription in a sentence, where it asks for attention or explains an end. */
function StatusNotice({
  subscription,
  canUpdate,
  isResuming,
  onResume,
}: {
  subscription: Subscription;
  canUpdate: boolean;
  isResuming: boolean;
  onResume: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const day = (at: string | null) => (at ? formatDay(at, locale) : '—');
  const { status } = subscription;

  if (status === 'trial') {
    const left = subscription.trialEndsAt ? daysLeft(subscription.trialEndsAt) : 0;
    return (
      <Alert color="blue" variant="light" title={t('subscriptions.notice.trialTitle', 'Trial')}>
        {t('subscriptions.notice.trial', {
          count: left,
          date: day(subscription.trialEndsAt),
          defaultValue_one: '{{count, number}} day left: the trial ends on {{date}}.',
          defaultValue_other: '{{count, number}} days left: the trial ends on {{date}}.',
        })}
      </Alert>
    );
  }
  if (status === 'past_due') {
    return (
      <Alert color="orange" variant="light" title={t('subscriptions.notice.pastDueTitle', 'Payment overdue')}>
        {t(
          'subscriptions.notice.pastDue',
          'The last payment failed. Change the payment method: the open invoice is charged to the new card at once. Until then it is retried automatically.',
        )}
      </Alert>
    );
  }
  if (status === 'active' && subscription.cancelAtPeriodEnd) {
    return (
      <Alert
        color="gray"
        variant="light"
        title={t('subscriptions.notice.cancellingTitle', 'Cancellation scheduled')}
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            {t(
              'subscriptions.notice.cancelling',
              'The subscription ends on {{date}} and is not renewed. Until then everything keeps working.',
              { date: day(subscription.currentPeriodEnd) },
            )}
          </Text>
          {canUpdate ? (
            <Button size="xs" onClick={onResume} loading={isResuming}>
              {t('subscriptions.resume.button', 'Resume subscription')}
            </Button>
          ) : null}
        </Stack>
      </Alert>
    );
  }
  if (status === 'cancelled') {
    const end = subscription.currentPeriodEnd ?? subscription.cancelledAt;
    const hasEnded = end !== null && Date.parse(end) <= Date.now();
    return (
      <Alert color="gray" variant="light" title={t('subscriptions.notice.cancelledTitle', 'Cancelled')}>
        {hasEnded
          ? t(
              'subscriptions.notice.cancelledEnded',
              'The subscription ended on {{date}}. Choose a plan to subscribe again.',
              {
                date: day(end),
              },
            )
          : t('subscriptions.notice.cancelledEnds', 'The subscription is cancelled and ends on {{date}}.', {
              date: day(end),
            })}
      </Alert>
    );
  }
  if (status === 'expired') {
    return (
      <Alert color="red" variant="light" title={t('subscriptions.notice.expiredTitle', 'Expired')}>
        {t('subscriptions.notice.expired', 'The subscription has expired. Choose a plan to subscribe again.')}
      </Alert>
    );
  }
  return null;
}

/** A change that waits for the end of the period (a downgrade, a new billing cycle), in a sentence. */
function ScheduledNotice({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const planNames = usePlanNames();
  const addOnNames = useAddOnNames();
  const cycleLabels = useCycleLabels();
  const change = subscription.scheduledChange;
  if (!change) return null;
  return (
    <Alert color="blue" variant="light" title={t('subscriptions.notice.scheduledTitle', 'Change scheduled')}>
      {t(
        'subscriptions.notice.scheduled',
        'On {{date}} the subscription changes to the {{plan}} plan with {{seats}} seats, billed {{cycle}}, add-ons: {{addOns}}. Nothing is charged for it before then.',
        {
          date: formatDay(change.effectiveAt, locale),
          plan: planNames[change.plan],
          seats: formatCount(change.seats, locale),
          cycle: cycleLabels[change.billingCycle].toLowerCase(),
          addOns:
            change.addOns.length > 0
              ? change.addOns.map((sku) => addOnNames[sku]).join(', ')
              : t('subscriptions.fields.noAddOns', 'None').toLowerCase(),
        },
      )}
    </Alert>
  );
}

/** The plan, its state, seats, add-ons, payment method and the actions on them. */
function SubscriptionDetails({ tenant, subscription }: { tenant: string; subscription: Subscription }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const canUpdate = useCan('billing:update');
  const planNames = usePlanNames();
  const addOnNames = useAddOnNames();
  const cycleLabels = useCycleLabels();
  const headingId = useId();
  const paymentHeadingId = useId();
  const trialReasonId = useId();
  const [isChangeOpen, setChangeOpen] = useState(false);
  const [isPaymentOpen, setPaymentOpen] = useState(false);
  const [isCancelOpen, setCancelOpen] = useState(false);
  const day = (at: string | null) => (at ? formatDay(at, locale) : '—');
  const planName = planNames[subscription.plan];
  const isTrial = subscription.plan === 'trial' || subscription.status === 'trial';

  const cancelReason = (error: ApiError) =>
    error.errcode === ERRORS.trial_not_cancellable.errcode
      ? trialReason(
          t,
          error.details?.[0]?.values?.trialEndsAt
            ? day(error.details[0].values.trialEndsAt)
            : day(subscription.trialEndsAt),
        )
      : undefined;

  const cancel = useCancelSubscription(tenant, {
    onSuccess: (changed) => {
      setCancelOpen(false);
      showSuccess(
        t('subscriptions.cancel.done', 'The subscription is cancelled. It ends on {{date}}.', {
          date: day(changed.currentPeriodEnd),
        }),
      );
    },
    onError: (error) => {
      setCancelOpen(false);
      showMutationError(t, error, {
        title: t('subscriptions.cancel.failed', 'The subscription was not cancelled'),
        explain: cancelReason,
      });
    },
  });
  const resume = useResumeSubscription(tenant, {
    onSuccess: (changed) =>
      showSuccess(
        t('subscriptions.resume.done', 'The subscription continues and renews on {{date}}.', {
          date: day(changed.renewsAt ?? changed.currentPeriodEnd),
        }),
      ),
    onError: (error) =>
      showMutationError(t, error, {
        title: t('subscriptions.resume.failed', 'The subscription was not resumed'),
      }),
  });

  const card = subscription.paymentMethod;
  // The next period's price, in the cycle it is billed in (a scheduled change may bring another).
  const price =
    (subscription.scheduledChange?.billingCycle ?? subscription.billingCycle) === 'monthly'
      ? t('subscriptions.change.perMonth', '{{amount}} per month', {
          amount: formatMoney(subscription.price.total, subscription.price.currency, locale),
        })
      : t('subscriptions.change.perYear', '{{amount}} per year', {
          amount: formatMoney(subscription.price.total, subscription.price.currency, locale),
        });
  const canCancelNow = subscription.cancellable && !subscription.cancelAtPeriodEnd;
  const showsCancel = isTrial || canCancelNow;

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="sm">
            <Group gap="sm" align="center">
              <Title order={2} size="h3" id={headingId}>
                {t('subscriptions.planTitle', '{{plan}} plan', { plan: planName })}
              </Title>
              <SubscriptionStatusBadge status={subscription.status} />
            </Group>
            {canUpdate ? (
              <Group gap="sm">
                <Button onClick={() => setChangeOpen(true)}>
                  {startsPaidPeriod(subscription)
                    ? t('subscriptions.change.choosePaid', 'Choose a paid plan')
                    : t('subscriptions.change.button', 'Change plan, seats or add-ons')}
                </Button>
              </Group>
            ) : null}
          </Group>
          <StatusNotice
            subscription={subscription}
            canUpdate={canUpdate}
            isResuming={resume.isPending}
            onResume={() => resume.mutate()}
          />
          <ScheduledNotice subscription={subscription} />
          <DetailList
            items={[
              {
                label: t('subscriptions.fields.cycle', 'Billing cycle'),
                value: cycleLabels[subscription.billingCycle],
              },
              isTrial
                ? {
                    label: t('subscriptions.fields.trialEnds', 'Trial ends'),
                    value: day(subscription.trialEndsAt),
                  }
                : {
                    label: t('subscriptions.fields.renews', 'Renews on'),
                    value: subscription.renewsAt
                      ? day(subscription.renewsAt)
                      : t('subscriptions.fields.noRenewal', 'Does not renew'),
                  },
              {
                label: t('subscriptions.fields.period', 'Current period'),
                value:
                  subscription.currentPeriodStart && subscription.currentPeriodEnd
                    ? t('subscriptions.fields.periodRange', '{{from}} – {{to}}', {
                        from: day(subscription.currentPeriodStart),
                        to: day(subscription.currentPeriodEnd),
                      })
                    : '—',
              },
              isTrial
                ? {
                    label: t('subscriptions.fields.price', 'Price of the next period'),
                    value: t('subscriptions.fields.free', 'Free during the trial'),
                  }
                : { label: t('subscriptions.fields.price', 'Price of the next period'), value: price },
              {
                label: t('subscriptions.fields.addOns', 'Add-ons'),
                value:
                  subscription.addOns.length > 0
                    ? subscription.addOns.map((sku) => addOnNames[sku]).join(', ')
                    : t('subscriptions.fields.noAddOns', 'None'),
              },
            ]}
          />
          <SeatsMeter
            seats={subscription.seats}
            users={subscription.used.users}
            devices={subscription.used.devices}
          />
          {canUpdate && showsCancel ? (
            <Stack gap={4} align="flex-start">
              <Button
                variant="outline"
                color="red"
                disabled={!canCancelNow}
                aria-describedby={!canCancelNow ? trialReasonId : undefined}
                onClick={() => setCancelOpen(true)}
              >
                {t('subscriptions.cancel.button', 'Cancel subscription')}
              </Button>
              {!canCancelNow ? (
                <Text size="sm" id={trialReasonId}>
                  {trialReason(t, subscription.trialEndsAt ? day(subscription.trialEndsAt) : null)}
                </Text>
              ) : null}
            </Stack>
          ) : null}
        </Stack>
      </Card>

      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={paymentHeadingId}>
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4}>
            <Title order={2} size="h4" id={paymentHeadingId}>
              {t('subscriptions.payment.heading', 'Payment method')}
            </Title>
            <Text size="sm">
              {card
                ? t('subscriptions.payment.card', '{{brand}} •••• {{last4}}, expires {{month}}/{{year}}', {
                    brand: cardBrand(card.brand),
                    last4: card.last4,
                    month: String(card.expMonth).padStart(2, '0'),
                    year: card.expYear,
                  })
                : t('subscriptions.payment.none', 'No payment method on file.')}
            </Text>
          </Stack>
          {canUpdate ? (
            <Button variant="default" onClick={() => setPaymentOpen(true)}>
              {t('subscriptions.payment.button', 'Change payment method')}
            </Button>
          ) : null}
        </Group>
      </Card>

      <Suspense fallback={<LoadingState />}>
        <PaymentHistory tenant={tenant} />
      </Suspense>

      {canUpdate ? (
        <>
          <ChangePlanModal
            opened={isChangeOpen}
            onClose={() => setChangeOpen(false)}
            tenant={tenant}
            subscription={subscription}
          />
          <PaymentMethodModal opened={isPaymentOpen} onClose={() => setPaymentOpen(false)} tenant={tenant} />
          <ConfirmModal
            opened={isCancelOpen}
            title={t('subscriptions.cancel.title', 'Cancel subscription?')}
            message={t(
              'subscriptions.cancel.message',
              'The {{plan}} plan stays active until {{date}} and then ends: it is not renewed and not charged again. You can resume it until then.',
              { plan: planName, date: day(subscription.currentPeriodEnd) },
            )}
            confirmLabel={t('subscriptions.cancel.confirm', 'Cancel at period end')}
            isDestructive
            isBusy={cancel.isPending}
            onClose={() => setCancelOpen(false)}
            onConfirm={() => cancel.mutate()}
          />
        </>
      ) : null}
    </Stack>
  );
}

/**
 * `/tenant/:id/subscriptions/` (id = tenant name): the tenant's plan and its state (a trial's days left, a
 * payment overdue, a cancellation's end), billing cycle and renewal, seats purchased against the users counted
 * now, add-ons, the payment method, and the invoices. Billing administrators change the plan, seats, add-ons
 * and cycle with the price shown, change the card through a provider token, and cancel at period end or resume;
 * a trial cannot be cancelled and says why.
 */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const canView = useCan('billing:view');
  const query = useSubscription(canView ? id : '');
  const title = t('subscriptions.title', 'Subscription');
  const historyLink = canView ? (
    <Button component={Link} to={buildPath('/tenant/:id/subscriptions/history', id)} variant="default">
      {t('subscriptions.historyLink', 'Subscription history')}
    </Button>
  ) : null;

  let body: ReactNode;
  if (!canView) {
    body = (
      <EmptyState
        message={t('subscriptions.notAllowed', 'Your role does not include the subscription and billing.')}
      />
    );
  } else if (query.isPending) {
    body = <LoadingState label={t('subscriptions.loading', 'Loading the subscription…')} />;
  } else if (query.isError) {
    body = isNoSubscription(query.error) ? (
      <EmptyState message={t('subscriptions.none', 'This tenant has no subscription: it is not billed.')} />
    ) : (
      <ErrorState error={query.error} onRetry={() => void query.refetch()} />
    );
  } else {
    body = <SubscriptionDetails tenant={id} subscription={query.data} />;
  }

  return (
    <>
      <PageHeader title={title} actions={historyLink} />
      {body}
    </>
  );
}

import {
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Radio,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import {
  type AddOnSku,
  BILLING_CYCLES,
  type BillingCycle,
  CURRENCY,
  PAID_PLAN_SKUS,
  type PaidPlanSku,
  PLANS,
  priceOf,
  purchasableAddOns,
  quoteChange,
  type Subscription,
  type SubscriptionUpdateInput,
} from '@palisade/contracts';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../components/charts/format';
import { serverFieldErrors } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useUpdateSubscription } from '../api/change-subscription';
import { formatDay, formatMoney } from '../utils/format';
import { declineMessage } from './decline';
import { useAddOnNames, useCycleLabels, useLocale, usePlanNames } from './labels';

/** What the dialog edits. */
export interface PlanChoice {
  plan: PaidPlanSku;
  billingCycle: BillingCycle;
  /** Empty while the field is cleared. */
  seats: number | '';
  addOns: AddOnSku[];
  paymentToken: string;
}

/** Whether the change starts a new paid period, charged at once (off the trial, or back from an end). */
export function startsPaidPeriod(subscription: Subscription): boolean {
  return (
    subscription.plan === 'trial' || subscription.status === 'cancelled' || subscription.status === 'expired'
  );
}

/**
 * The dialog's first values: the subscription as it will be — its scheduled change, else as it is (a trial
 * starts from Business, its seats kept within the plan's limits; add-ons the plan does not sell, or no longer
 * sold at all, are left out).
 */
export function initialChoice(subscription: Subscription): PlanChoice {
  const base = subscription.scheduledChange ?? subscription;
  const plan: PaidPlanSku = base.plan === 'trial' ? 'business' : base.plan;
  const { minSeats, maxSeats } = PLANS[plan];
  return {
    plan,
    billingCycle: base.billingCycle,
    seats: Math.min(maxSeats, Math.max(base.seats, minSeats, subscription.used.users)),
    addOns: base.addOns.filter((addOn) => purchasableAddOns(plan).includes(addOn)),
    paymentToken: '',
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

/**
 * The request of a choice: only what changes (the plan always when leaving the trial), the token when given.
 * Null when nothing changes.
 */
export function toUpdateInput(
  subscription: Subscription,
  choice: PlanChoice,
): SubscriptionUpdateInput | null {
  const body: SubscriptionUpdateInput = {};
  if (choice.plan !== subscription.plan || startsPaidPeriod(subscription)) body.plan = choice.plan;
  if (choice.billingCycle !== subscription.billingCycle) body.billingCycle = choice.billingCycle;
  if (choice.seats !== '' && choice.seats !== subscription.seats) body.seats = choice.seats;
  if (!sameSet(choice.addOns, subscription.addOns)) body.addOns = [...choice.addOns];
  const token = choice.paymentToken.trim();
  if (token) body.paymentToken = token;
  // Back to the subscription as it is: the scheduled change is dropped.
  if (Object.keys(body).length === 0 && subscription.scheduledChange) body.plan = choice.plan;
  return Object.keys(body).length > 0 ? body : null;
}

/**
 * What the server charges for a choice on a running plan (the contract's `quoteChange`, which the server bills):
 * null when the choice starts a new paid period instead.
 */
export function quoteOf(subscription: Subscription, choice: PlanChoice, now: Date) {
  if (
    startsPaidPeriod(subscription) ||
    subscription.plan === 'trial' ||
    !subscription.currentPeriodStart ||
    !subscription.currentPeriodEnd
  )
    return null;
  return quoteChange(
    { ...subscription, plan: subscription.plan },
    { plan: choice.plan, billingCycle: choice.billingCycle, seats: choice.seats || 0, addOns: choice.addOns },
    { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd },
    now,
  );
}

/** Props of {@link ChangePlanModal}. */
export interface ChangePlanModalProps {
  opened: boolean;
  onClose: () => void;
  tenant: string;
  subscription: Subscription;
}

type FieldErrors = Partial<Record<'seats' | 'addOns' | 'paymentToken', string>>;

/**
 * Changes the plan, billing cycle, seats and add-ons, with the price of the next period shown as it is chosen
 * (the contract's `priceOf`) and what is charged now (its `quoteChange`: the rest of the period of a change that
 * costs more; nothing for one that waits for the period end) — what the server bills. Leaving the trial (or
 * coming back after an end) is charged at once and needs a card: with none on file the dialog asks for a
 * provider token, never for card data.
 */
export function ChangePlanModal({ opened, onClose, tenant, subscription }: ChangePlanModalProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const planNames = usePlanNames();
  const addOnNames = useAddOnNames();
  const cycleLabels = useCycleLabels();
  const cycleLabelId = useId();
  const [choice, setChoice] = useState<PlanChoice>(() => initialChoice(subscription));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [isUnchanged, setUnchanged] = useState(false);
  // The moment the charge is quoted for (the server's, a moment later, differs by less than a cent).
  const [now, setNow] = useState(() => new Date());

  // Each opening starts from the subscription as it is now.
  useEffect(() => {
    if (opened) {
      setChoice(initialChoice(subscription));
      setErrors({});
      setUnchanged(false);
      setNow(new Date());
    }
  }, [opened, subscription]);

  const plan = PLANS[choice.plan];
  // Only what is sold, and sold with this plan (the server refuses the rest).
  const offeredAddOns = purchasableAddOns(choice.plan);
  const needsToken = startsPaidPeriod(subscription) && subscription.paymentMethod === null;
  const price = priceOf(choice.plan, choice.billingCycle, choice.seats || 0, choice.addOns);
  const money = (cents: number) => formatMoney(cents, CURRENCY, locale);
  const quote = quoteOf(subscription, choice, now);
  const chargedNow = quote?.when === 'now' ? quote.amount : 0;
  const periodEndDay = subscription.currentPeriodEnd ? formatDay(subscription.currentPeriodEnd, locale) : '';
  const perPeriod =
    choice.billingCycle === 'monthly'
      ? t('subscriptions.change.perMonth', '{{amount}} per month', { amount: money(price.total) })
      : t('subscriptions.change.perYear', '{{amount}} per year', { amount: money(price.total) });

  const update = useUpdateSubscription(tenant, {
    onSuccess: () => {
      showSuccess(t('subscriptions.change.done', 'The subscription was changed.'));
      onClose();
    },
    onError: (error) => {
      const declined = declineMessage(t, error);
      const fields = serverFieldErrors(error, t);
      // An add-on is named by its index (`addOns.1`), the kept ones together (`addOns`).
      const addOnError = Object.entries(fields).find(([field]) => /^addOns(\.\d+)?$/.test(field))?.[1];
      const next: FieldErrors = {
        ...(fields.seats ? { seats: fields.seats } : {}),
        ...(addOnError ? { addOns: addOnError } : {}),
        ...(fields.paymentToken ? { paymentToken: fields.paymentToken } : {}),
      };
      if (declined && needsToken) next.paymentToken = declined;
      if (Object.keys(next).length > 0) setErrors(next);
      else
        showMutationError(t, error, {
          title: t('subscriptions.change.failed', 'The subscription was not changed'),
          explain: () => declined ?? undefined,
        });
    },
  });

  const choosePlan = (sku: PaidPlanSku) =>
    setChoice((current) => ({
      ...current,
      plan: sku,
      seats: Math.max(current.seats || 0, PLANS[sku].minSeats),
      addOns: current.addOns.filter((addOn) => purchasableAddOns(sku).includes(addOn)),
    }));

  /** The form's own checks, in the words the server would use. */
  const validate = (): FieldErrors => {
    const found: FieldErrors = {};
    if (choice.seats === '') found.seats = t('validation.required', 'This field is required.');
    else if (!Number.isInteger(choice.seats) || choice.seats < plan.minSeats)
      found.seats = t('subscriptions.change.seatsMin', 'The {{plan}} plan needs at least {{min}} seats.', {
        plan: planNames[choice.plan],
        min: formatCount(plan.minSeats, locale),
      });
    else if (choice.seats > plan.maxSeats)
      found.seats = t(
        'subscriptions.change.seatsMax',
        'The {{plan}} plan is sold with at most {{max}} seats.',
        {
          plan: planNames[choice.plan],
          max: formatCount(plan.maxSeats, locale),
        },
      );
    else if (choice.seats < subscription.used.users)
      found.seats = t(
        'subscriptions.change.seatsUsed',
        '{{used}} users take seats now: keep at least that many, or remove users first.',
        { used: formatCount(subscription.used.users, locale) },
      );
    if (needsToken && choice.paymentToken.trim() === '')
      found.paymentToken = t('subscriptions.change.tokenRequired', 'A paid plan needs a payment method.');
    return found;
  };

  const submit = () => {
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = toUpdateInput(subscription, choice);
    setUnchanged(body === null);
    if (body) update.mutate(body);
  };

  const close = () => {
    if (!update.isPending) onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('subscriptions.change.title', 'Change subscription')}
      size="lg"
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Radio.Group
            label={t('subscriptions.change.plan', 'Plan')}
            value={choice.plan}
            onChange={(value) => choosePlan(value as PaidPlanSku)}
          >
            <Stack gap="xs" mt="xs">
              {PAID_PLAN_SKUS.map((sku) => (
                <Radio
                  key={sku}
                  value={sku}
                  label={planNames[sku]}
                  description={t(
                    'subscriptions.change.planHint',
                    '{{price}} per seat and month, or {{yearly}} per seat and year; {{min}} to {{max}} seats',
                    {
                      price: money(PLANS[sku].pricePerSeat.monthly),
                      yearly: money(PLANS[sku].pricePerSeat.yearly),
                      min: formatCount(PLANS[sku].minSeats, locale),
                      max: formatCount(PLANS[sku].maxSeats, locale),
                    },
                  )}
                />
              ))}
            </Stack>
          </Radio.Group>
          <Stack gap={4}>
            <Text size="sm" fw={500} id={cycleLabelId}>
              {t('subscriptions.change.cycle', 'Billing cycle')}
            </Text>
            <SegmentedControl
              aria-labelledby={cycleLabelId}
              value={choice.billingCycle}
              onChange={(value) =>
                setChoice((current) => ({ ...current, billingCycle: value as BillingCycle }))
              }
              data={BILLING_CYCLES.map((cycle) => ({ value: cycle, label: cycleLabels[cycle] }))}
            />
          </Stack>
          <NumberInput
            label={t('subscriptions.change.seats', 'Seats')}
            description={t(
              'subscriptions.change.seatsHint',
              'One seat per user. {{used}} in use now; the {{plan}} plan takes {{min}} to {{max}} seats.',
              {
                used: formatCount(subscription.used.users, locale),
                plan: planNames[choice.plan],
                min: formatCount(plan.minSeats, locale),
                max: formatCount(plan.maxSeats, locale),
              },
            )}
            min={1}
            max={plan.maxSeats}
            // Not clamped: a number past the limits is said, in the words the server would use.
            clampBehavior="none"
            allowDecimal={false}
            allowNegative={false}
            value={choice.seats}
            onChange={(value) =>
              setChoice((current) => ({ ...current, seats: typeof value === 'number' ? value : '' }))
            }
            error={errors.seats}
            required
          />
          {offeredAddOns.length > 0 ? (
            <Checkbox.Group
              label={t('subscriptions.change.addOns', 'Add-ons')}
              value={[...new Set([...choice.addOns, ...plan.includedAddOns])]}
              onChange={(value) =>
                setChoice((current) => ({
                  ...current,
                  addOns: (value as AddOnSku[]).filter((sku) => !plan.includedAddOns.includes(sku)),
                }))
              }
              error={errors.addOns}
            >
              <Stack gap="xs" mt="xs">
                {offeredAddOns.map((sku) => (
                  <Checkbox
                    key={sku}
                    value={sku}
                    label={addOnNames[sku]}
                    disabled={plan.includedAddOns.includes(sku)}
                    description={
                      plan.includedAddOns.includes(sku)
                        ? t('subscriptions.change.included', 'Included in this plan')
                        : undefined
                    }
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t('subscriptions.change.noAddOns', 'The {{plan}} plan has no add-ons.', {
                plan: planNames[choice.plan],
              })}
            </Text>
          )}
          {needsToken ? (
            <TextInput
              label={t('subscriptions.token.label', 'Payment token')}
              description={t(
                'subscriptions.token.hint',
                'Card details are never typed into this console. A real deployment shows the payment provider’s own card form here and passes its token on; in this test setup, enter a sandbox token such as tok_visa.',
              )}
              autoComplete="off"
              spellCheck={false}
              maxLength={200}
              required
              value={choice.paymentToken}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setChoice((current) => ({ ...current, paymentToken: value }));
              }}
              error={errors.paymentToken}
            />
          ) : null}
          <Stack gap={4} aria-live="polite">
            <Text fw={600}>
              {t('subscriptions.change.price', 'Price of the next period: {{price}}', { price: perPeriod })}
            </Text>
            {price.lines.length > 0 ? (
              <Table withTableBorder fz="sm" aria-label={t('subscriptions.change.priceTable', 'Price')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('subscriptions.change.item', 'Item')}</Table.Th>
                    <Table.Th scope="col" ta="end">
                      {t('subscriptions.change.quantity', 'Quantity')}
                    </Table.Th>
                    <Table.Th scope="col" ta="end">
                      {t('subscriptions.change.amount', 'Amount')}
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {price.lines.map((line) => (
                    <Table.Tr key={line.sku}>
                      <Table.Td>{priceLineName(line.sku, planNames, addOnNames, cycleLabels)}</Table.Td>
                      <Table.Td ta="end">{formatCount(line.quantity, locale)}</Table.Td>
                      <Table.Td ta="end">{money(line.amount)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : null}
            {startsPaidPeriod(subscription) ? (
              <Text size="sm" c="dimmed">
                {t('subscriptions.change.chargedNow', 'The first period is charged when you confirm.')}
              </Text>
            ) : null}
            {quote?.when === 'now' ? (
              <>
                <Text fw={600}>
                  {chargedNow > 0
                    ? t('subscriptions.change.chargeNow', 'Charged now: {{amount}}', {
                        amount: money(chargedNow),
                      })
                    : t('subscriptions.change.nothingNow', 'Charged now: nothing')}
                </Text>
                <Text size="sm" c="dimmed">
                  {t(
                    'subscriptions.change.prorated',
                    'The change costs more, so it takes effect once the difference for the rest of this period (until {{date}}) is paid. If the card is declined, the current plan stays.',
                    { date: periodEndDay },
                  )}
                </Text>
                {quote.atPeriodEnd ? (
                  <Text size="sm" c="dimmed">
                    {t(
                      'subscriptions.change.cycleAtEnd',
                      'The billing cycle changes to {{cycle}} on {{date}}, when the next period starts.',
                      { cycle: cycleLabels[quote.atPeriodEnd.billingCycle], date: periodEndDay },
                    )}
                  </Text>
                ) : null}
              </>
            ) : null}
            {quote?.when === 'periodEnd' ? (
              <Text size="sm" c="dimmed">
                {t(
                  'subscriptions.change.atPeriodEnd',
                  'Nothing is charged now: the change takes effect on {{date}}, when the next period starts. Until then the current plan stays.',
                  { date: periodEndDay },
                )}
              </Text>
            ) : null}
            {isUnchanged ? (
              <Text size="sm" fw={500} role="status">
                {t('subscriptions.change.unchanged', 'Nothing was changed.')}
              </Text>
            ) : null}
          </Stack>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={update.isPending}>
              {t('common.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={update.isPending}>
              {startsPaidPeriod(subscription)
                ? t('subscriptions.change.submitPaid', 'Subscribe for {{price}}', { price: perPeriod })
                : chargedNow > 0
                  ? t('subscriptions.change.submitCharge', 'Pay {{amount}} and save', {
                      amount: money(chargedNow),
                    })
                  : t('subscriptions.change.submit', 'Save changes')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The name of a price line (`plan:<sku>` or `addon:<sku>`) in the console's language. */
export function priceLineName(
  sku: string,
  planNames: Record<string, string>,
  addOnNames: Record<string, string>,
  cycleLabels: Record<BillingCycle, string>,
  cycle?: BillingCycle,
): string {
  const [kind, name] = sku.split(':');
  if (kind === 'plan')
    return cycle ? `${planNames[name] ?? name} (${cycleLabels[cycle]})` : (planNames[name] ?? name);
  return addOnNames[name] ?? name;
}

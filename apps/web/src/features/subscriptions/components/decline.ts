import { ERRORS } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api-client';

/**
 * A declined card in the console's own words (402 `payment_declined`), by the provider's reason in
 * `details[0].values.reason`; null for any other failure.
 */
export function declineMessage(t: TFunction, error: unknown): string | null {
  if (!(error instanceof ApiError) || error.errcode !== ERRORS.payment_declined.errcode) return null;
  const reason = error.details?.[0]?.values?.reason;
  const reasons: Record<string, string> = {
    card_declined: t('subscriptions.declined.card_declined', 'The card was declined. Use another card.'),
    insufficient_funds: t(
      'subscriptions.declined.insufficient_funds',
      'The card has insufficient funds. Use another card.',
    ),
    processing_error: t(
      'subscriptions.declined.processing_error',
      'The payment provider could not process the card. Try again in a moment.',
    ),
  };
  return (
    (reason ? reasons[reason] : undefined) ??
    t('subscriptions.declined.other', 'The payment was declined. Nothing was changed.')
  );
}

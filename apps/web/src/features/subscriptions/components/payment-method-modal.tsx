import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useSetPaymentMethod } from '../api/change-subscription';
import { cardBrand } from '../utils/format';
import { declineMessage } from './decline';

/** Props of {@link PaymentMethodModal}. */
export interface PaymentMethodModalProps {
  opened: boolean;
  onClose: () => void;
  tenant: string;
}

/**
 * Replaces the card on file. The console never takes card data: a real deployment shows the payment provider's
 * hosted card form, which hands back a token; this test setup takes the provider's sandbox token instead. A
 * declined card is said on the field, and nothing changes.
 */
export function PaymentMethodModal({ opened, onClose, tenant }: PaymentMethodModalProps) {
  const { t } = useTranslation();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setToken('');
      setError(null);
    }
  }, [opened]);

  const save = useSetPaymentMethod(tenant, {
    onSuccess: (subscription) => {
      const card = subscription.paymentMethod;
      showSuccess(
        card
          ? t('subscriptions.payment.done', 'The payment method is now {{brand}} •••• {{last4}}.', {
              brand: cardBrand(card.brand),
              last4: card.last4,
            })
          : t('subscriptions.payment.doneNoCard', 'The payment method was updated.'),
      );
      onClose();
    },
    onError: (failure) => {
      const message = declineMessage(t, failure) ?? serverFieldErrors(failure, t).token;
      if (message) setError(message);
      else
        showMutationError(t, failure, {
          title: t('subscriptions.payment.failed', 'The payment method was not changed'),
        });
    },
  });

  const close = () => {
    if (!save.isPending) onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('subscriptions.payment.title', 'Change payment method')}
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (token.trim() === '') {
            setError(t('validation.required', 'This field is required.'));
            return;
          }
          save.mutate(token.trim());
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            {t(
              'subscriptions.payment.explain',
              'Card details are never typed into this console. In a real deployment, the payment provider’s own secure form opens here and hands the console a token for the card.',
            )}
          </Text>
          <TextInput
            label={t('subscriptions.token.label', 'Payment token')}
            description={t(
              'subscriptions.token.sandbox',
              'Test setup: enter a sandbox token such as tok_visa.',
            )}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            required
            data-autofocus
            value={token}
            onChange={(event) => {
              setToken(event.currentTarget.value);
              setError(null);
            }}
            error={error}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={save.isPending}>
              {t('common.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('subscriptions.payment.submit', 'Use this card')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

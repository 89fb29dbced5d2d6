import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { ReportRecipient } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** The badge of a recipient's state: its colour and words. */
export function recipientStateLabel(
  t: TFunction,
  recipient: ReportRecipient,
): { color: string; label: string } {
  switch (recipient.state) {
    case 'member':
      return { color: 'blue', label: t('reports.recipients.member', 'Administrator') };
    case 'verified':
      return { color: 'green', label: t('reports.recipients.verified', 'Confirmed') };
    case 'expired':
      return { color: 'orange', label: t('reports.recipients.expired', 'Link expired') };
    default:
      return recipient.mailedAt
        ? { color: 'yellow', label: t('reports.recipients.pending', 'Waiting for confirmation') }
        : { color: 'gray', label: t('reports.recipients.notMailed', 'Link not sent') };
  }
}

/** Props of {@link RecipientList}. */
export interface RecipientListProps {
  recipients: ReportRecipient[];
  /** Offers "resend link" for those not confirmed (administrators who may change the dashboard). */
  canResend: boolean;
  onResend: (email: string) => void;
  /** The address whose link is being sent. */
  resending?: string | null;
}

/**
 * A mailing's recipients, each with whether it is mailed: administrators of the workspace are, other addresses
 * once they confirmed the mailed link; the others wait, and their link can be sent again.
 */
export function RecipientList({ recipients, canResend, onResend, resending }: RecipientListProps) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {recipients.map((recipient) => {
        const { color, label } = recipientStateLabel(t, recipient);
        const isWaiting = recipient.state === 'pending' || recipient.state === 'expired';
        return (
          <Group key={recipient.email} component="li" gap={6} wrap="nowrap">
            <Text size="sm">{recipient.email}</Text>
            <Badge size="xs" variant="light" color={color}>
              {label}
            </Badge>
            {canResend && isWaiting ? (
              <Button
                size="compact-xs"
                variant="subtle"
                loading={resending === recipient.email}
                onClick={() => onResend(recipient.email)}
                aria-label={t('reports.recipients.resendTo', 'Send the link again to {{email}}', {
                  email: recipient.email,
                })}
              >
                {t('reports.recipients.resend', 'Send link again')}
              </Button>
            ) : null}
          </Group>
        );
      })}
    </Stack>
  );
}

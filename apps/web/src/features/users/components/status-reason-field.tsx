import { Textarea } from '@mantine/core';
import { MAX_STATUS_REASON } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** Props of {@link StatusReasonField}. */
export interface StatusReasonFieldProps {
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}

/** Why accounts are disabled: required, kept on each user and in the event log. Focused when its dialog opens. */
export function StatusReasonField({ value, error, onChange }: StatusReasonFieldProps) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t('users.status.reason', 'Reason')}
      description={t('users.status.reasonHint', 'Shown on the user and in the event log.')}
      required
      autosize
      minRows={2}
      maxLength={MAX_STATUS_REASON}
      value={value}
      error={error}
      data-autofocus
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

import { SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '../../../components/ui/date-time-field';
import { DeviceSelect, UserSelect } from '../components/pickers';
import type { RequestFormValues } from './request-form';

/**
 * The fields of a request to decide, shared by the simulator and the policy-test form: who (a user or a
 * device), where to, and optionally from where, how and when.
 */
export function RequestFields<V extends RequestFormValues>({
  form: typedForm,
}: {
  form: UseFormReturnType<V>;
}) {
  const { t } = useTranslation();
  // Only the request fields are touched here; they have the same types in every form that has them.
  const form = typedForm as unknown as UseFormReturnType<RequestFormValues>;
  const subjectLabelId = useId();
  const protocolLabelId = useId();
  const { subject } = form.getValues();
  return (
    <Stack gap="sm">
      <div>
        <Text component="span" id={subjectLabelId} size="sm" fw={500} display="block" mb={4}>
          {t('policies.simulator.subject', 'Who')}
        </Text>
        <SegmentedControl
          aria-labelledby={subjectLabelId}
          data={[
            { value: 'user', label: t('policies.simulator.subjectUser', 'A user') },
            { value: 'device', label: t('policies.simulator.subjectDevice', 'A device') },
          ]}
          value={subject}
          onChange={(value) => form.setFieldValue('subject', value as RequestFormValues['subject'])}
        />
      </div>
      {subject === 'user' ? (
        <UserSelect
          label={t('policies.simulator.user', 'User')}
          description={t(
            'policies.simulator.userHint',
            'Leave empty to test a request of nobody in particular.',
          )}
          value={form.getValues().userId}
          onChange={(id) => form.setFieldValue('userId', id)}
          error={form.errors.userId}
        />
      ) : (
        <DeviceSelect
          label={t('policies.simulator.device', 'Device')}
          description={t('policies.simulator.deviceHint', 'An enrolled device; search by its name or user.')}
          value={form.getValues().deviceId || null}
          onChange={(id) => form.setFieldValue('deviceId', id ?? '')}
          error={form.errors.deviceId}
        />
      )}
      <TextInput
        label={t('policies.simulator.destination', 'Destination')}
        description={t(
          'policies.simulator.destinationHint',
          'A URL, a domain, an IP address, or IP:port / domain:port.',
        )}
        placeholder="https://example.com/download"
        required
        autoComplete="off"
        {...form.getInputProps('destination')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t('policies.simulator.sourceIp', 'Source IP (optional)')}
          placeholder="203.0.113.10"
          autoComplete="off"
          {...form.getInputProps('sourceIp')}
        />
        <DateTimeField
          label={t('policies.simulator.time', 'Time (optional)')}
          description={t('policies.simulator.timeHint', 'Now when empty.')}
          value={form.getValues().time}
          onChange={(time) => form.setFieldValue('time', time)}
          error={form.errors.time}
        />
      </SimpleGrid>
      <div>
        <Text component="span" id={protocolLabelId} size="sm" fw={500} display="block" mb={4}>
          {t('policies.simulator.protocol', 'Protocol')}
        </Text>
        <SegmentedControl
          aria-labelledby={protocolLabelId}
          data={[
            { value: 'tcp', label: 'TCP' },
            { value: 'udp', label: 'UDP' },
          ]}
          value={form.getValues().protocol}
          onChange={(value) => form.setFieldValue('protocol', value as RequestFormValues['protocol'])}
        />
      </div>
    </Stack>
  );
}

import { Button, Group as Row, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { Decision, SimulationRequest } from '@palisade/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { serverFieldErrors } from '../../../lib/form-errors';
import { showSuccess } from '../../../lib/mutation-toast';
import { useSavePolicyTest } from '../api/policy-tests';
import { useDecisionLabels } from '../components/labels';

/** Props of {@link PinTest}. */
export interface PinTestProps {
  request: SimulationRequest;
  decision: Decision;
}

/**
 * "Pin as test": keeps a simulated request and its decision as a policy test, so a later change that decides
 * it differently is refused. Shown only to users who may create tests.
 */
export function PinTest({ request, decision }: PinTestProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('policies:create');
  const decisions = useDecisionLabels();
  const expectLabelId = useId();
  const [isOpen, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [expect, setExpect] = useState<Decision>(decision);
  const [nameError, setNameError] = useState<string | null>(null);
  const saveMutation = useSavePolicyTest(tenant, {
    onSuccess: (test) => {
      showSuccess(t('policies.tests.pinned', 'Test {{name}} pinned.', { name: test.name }));
      setOpen(false);
    },
  });

  if (!canCreate) return null;
  if (!isOpen) {
    return (
      <Row>
        <Button
          variant="light"
          size="xs"
          onClick={() => {
            setName(
              t('policies.tests.defaultName', '{{destination}} is {{decision}}', {
                destination: request.destination,
                decision: decisions[decision].toLowerCase(),
              }),
            );
            setExpect(decision);
            setNameError(null);
            setOpen(true);
          }}
        >
          {t('policies.tests.pin', 'Pin as test')}
        </Button>
      </Row>
    );
  }
  return (
    <Stack gap="xs" component="section" aria-label={t('policies.tests.pin', 'Pin as test')}>
      <Text size="sm" c="dimmed">
        {t(
          'policies.tests.pinHint',
          'A test is checked on every change; a change that decides it differently is refused.',
        )}
      </Text>
      <TextInput
        label={t('policies.tests.name', 'Test name')}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={nameError}
        required
        data-autofocus
      />
      <div>
        <Text component="span" id={expectLabelId} size="sm" fw={500} display="block" mb={4}>
          {t('policies.tests.expect', 'Expected decision')}
        </Text>
        <SegmentedControl
          aria-labelledby={expectLabelId}
          value={expect}
          onChange={(value) => setExpect(value as Decision)}
          data={[
            { value: 'allow', label: decisions.allow },
            { value: 'block', label: decisions.block },
          ]}
        />
      </div>
      <Row gap="sm">
        <Button
          size="xs"
          loading={saveMutation.isPending}
          onClick={() => {
            if (!name.trim()) {
              setNameError(t('validation.required', 'This field is required.'));
              return;
            }
            saveMutation.mutate(
              { id: null, body: { name: name.trim(), request, expect } },
              {
                onError: (error) => {
                  const errors = serverFieldErrors(error, t);
                  if (errors.name) setNameError(errors.name);
                },
              },
            );
          }}
        >
          {t('policies.tests.save', 'Save')}
        </Button>
        <Button size="xs" variant="default" onClick={() => setOpen(false)}>
          {t('policies.form.cancel', 'Cancel')}
        </Button>
      </Row>
    </Stack>
  );
}

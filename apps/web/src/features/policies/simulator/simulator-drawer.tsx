import { Alert, Button, Divider, Drawer, Group as Row, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type PolicyDraft, type SimulationRequest as Request, SimulationRequest } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ui/query-state';
import { useWorkingTenant } from '../../../lib/auth';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { useSimulate } from '../api/simulate';
import { PinTest } from './pin-test';
import { RequestFields } from './request-fields';
import { EMPTY_REQUEST_FORM, type RequestFormValues, toSimulationRequest } from './request-form';
import { SimulationResultView } from './simulation-result';

/** Props of {@link SimulatorDrawer}. */
export interface SimulatorDrawerProps {
  opened: boolean;
  onClose: () => void;
  /** An unsaved policy to decide against instead of the saved one. */
  draft?: PolicyDraft;
}

/** Moves the server's `request.x` field details onto the form's `x`. */
function requestFieldErrors(error: unknown, t: Parameters<typeof serverFieldErrors>[1]) {
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(serverFieldErrors(error, t))) {
    if (path.startsWith('request.')) errors[path.slice('request.'.length)] = message;
  }
  return errors;
}

/**
 * The policy simulator: describe a request (who, where to, from where, when) and see how the policy decides
 * it — with the unsaved draft when one is given — and why, step by step.
 */
export function SimulatorDrawer({ opened, onClose, draft }: SimulatorDrawerProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const simulateMutation = useSimulate(tenant);
  const [sent, setSent] = useState<Request | null>(null);
  const form = useForm<RequestFormValues>({
    mode: 'controlled',
    initialValues: EMPTY_REQUEST_FORM,
    validate: zodValidator(SimulationRequest, t, toSimulationRequest),
  });

  const handleSubmit = form.onSubmit((values) => {
    const request = toSimulationRequest(values);
    setSent(request);
    simulateMutation.mutate(draft ? { request, draft } : { request }, {
      onError: (error) => {
        const errors = requestFieldErrors(error, t);
        if (Object.keys(errors).length > 0) form.setErrors(errors);
      },
    });
  });

  const result = simulateMutation.data;
  const failedWithoutFields =
    simulateMutation.isError && Object.keys(requestFieldErrors(simulateMutation.error, t)).length === 0;

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="xl"
      title={t('policies.simulator.title', 'Test a request')}
      closeButtonProps={{ 'aria-label': t('policies.simulator.close', 'Close the simulator') }}
    >
      <Stack gap="md">
        {draft ? (
          <Alert color="blue" variant="light">
            {t(
              'policies.simulator.withDraft',
              'Decided with your unsaved changes to {{name}}. The saved policy is not changed.',
              { name: draft.policy.name || t('policies.editor.untitled', 'the new policy') },
            )}
          </Alert>
        ) : null}
        <form
          // The drawer is portalled, but React still bubbles its submit to the editor's form around the button.
          onSubmit={(event) => {
            event.stopPropagation();
            handleSubmit(event);
          }}
          noValidate
          aria-label={t('policies.simulator.formLabel', 'Request')}
        >
          <Stack gap="sm">
            <RequestFields form={form} />
            <Row>
              <Button type="submit" loading={simulateMutation.isPending}>
                {t('policies.simulator.run', 'Decide')}
              </Button>
            </Row>
          </Stack>
        </form>
        {failedWithoutFields ? <ErrorState error={simulateMutation.error} /> : null}
        {result && sent && !simulateMutation.isPending ? (
          <>
            <Divider />
            <SimulationResultView
              result={result}
              actions={<PinTest key={JSON.stringify(sent)} request={sent} decision={result.decision} />}
            />
          </>
        ) : null}
      </Stack>
    </Drawer>
  );
}

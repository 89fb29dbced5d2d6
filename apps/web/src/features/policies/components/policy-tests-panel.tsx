import {
  ActionIcon,
  Badge,
  Button,
  Modal,
  Group as Row,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { type Decision, type PolicyTest, PolicyTestInput, RULE_NAME_MAX } from '@palisade/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useDeletePolicyTests, usePolicyTests, useSavePolicyTest } from '../api/policy-tests';
import { RequestFields } from '../simulator/request-fields';
import {
  EMPTY_REQUEST_FORM,
  type RequestFormValues,
  toRequestFormValues,
  toSimulationRequest,
} from '../simulator/request-form';
import { fieldErrorsUnder, policyValidator } from '../utils/validation';
import { CheckIcon, CrossIcon, EditIcon, TrashIcon } from './icons';
import { useDecisionLabels } from './labels';
import { UserName, useDeviceLabel } from './pickers';

interface TestFormValues extends RequestFormValues {
  name: string;
  expect: Decision;
}

function toTestInput(values: TestFormValues): PolicyTestInput {
  return { name: values.name, request: toSimulationRequest(values), expect: values.expect };
}

/** Moves `request.x` paths (schema and server) onto the form's own `x`. */
function flatten(errors: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    result[path.startsWith('request.') ? path.slice('request.'.length) : path] = message;
  }
  return result;
}

/** Props of {@link PolicyTestModal}. */
interface PolicyTestModalProps {
  test: PolicyTest | null;
  opened: boolean;
  onClose: () => void;
}

/** Adds or edits a pinned test: a name, a request and the decision it must get. */
function PolicyTestModal({ test, opened, onClose }: PolicyTestModalProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const decisions = useDecisionLabels();
  const expectLabelId = useId();
  const validate = policyValidator(PolicyTestInput, t, toTestInput);
  const form = useForm<TestFormValues>({
    mode: 'controlled',
    initialValues: test
      ? { ...toRequestFormValues(test.request), name: test.name, expect: test.expect }
      : { ...EMPTY_REQUEST_FORM, name: '', expect: 'block' },
    validate: (values) => flatten(validate(values)),
  });
  const saveMutation = useSavePolicyTest(tenant, {
    onSuccess: (saved) => {
      showSuccess(t('policies.tests.saved', 'Test {{name}} saved.', { name: saved.name }));
      onClose();
    },
  });
  const handleSubmit = form.onSubmit((values) =>
    saveMutation.mutate(
      { id: test?.id ?? null, body: toTestInput(values) },
      { onError: (error) => form.setErrors(flatten(fieldErrorsUnder(error, t))) },
    ),
  );
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={test ? t('policies.tests.editTitle', 'Edit test') : t('policies.tests.addTitle', 'Add test')}
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('policies.tests.name', 'Test name')}
            required
            maxLength={RULE_NAME_MAX}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <RequestFields form={form} />
          <div>
            <Text component="span" id={expectLabelId} size="sm" fw={500} display="block" mb={4}>
              {t('policies.tests.expect', 'Expected decision')}
            </Text>
            <SegmentedControl
              aria-labelledby={expectLabelId}
              value={form.getValues().expect}
              onChange={(value) => form.setFieldValue('expect', value as Decision)}
              data={[
                { value: 'allow', label: decisions.allow },
                { value: 'block', label: decisions.block },
              ]}
            />
          </div>
          <Row gap="sm">
            <Button type="submit" loading={saveMutation.isPending}>
              {t('policies.tests.save', 'Save')}
            </Button>
            <Button variant="default" onClick={onClose}>
              {t('policies.form.cancel', 'Cancel')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}

/** A test's state: passing, failing, or not known. Colour, icon and text. */
function TestStatus({ test }: { test: PolicyTest }) {
  const { t } = useTranslation();
  if (test.passing === null) {
    return (
      <Badge variant="outline" color="gray">
        {t('policies.tests.unknown', 'Not run')}
      </Badge>
    );
  }
  return test.passing ? (
    <Badge color="green" leftSection={<CheckIcon size={12} />}>
      {t('policies.tests.pass', 'Pass')}
    </Badge>
  ) : (
    <Badge color="red" leftSection={<CrossIcon size={12} />}>
      {t('policies.tests.fail', 'Fail')}
    </Badge>
  );
}

/**
 * The pinned policy tests: each request with the decision it expects and what the live policy decides now.
 * A change that would make a test fail is refused by the server.
 */
export function PolicyTestsPanel() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const decisions = useDecisionLabels();
  const canCreate = useCan('policies:create');
  const canUpdate = useCan('policies:update');
  const canDelete = useCan('policies:delete');
  const testsQuery = usePolicyTests(tenant);
  const [editing, setEditing] = useState<{ test: PolicyTest | null } | null>(null);
  const [toDelete, setToDelete] = useState<PolicyTest | null>(null);
  const deleteMutation = useDeletePolicyTests(tenant, {
    onSuccess: () => {
      showSuccess(t('policies.tests.deleted', 'Test deleted.'));
      setToDelete(null);
    },
  });

  const renderBody = () => {
    if (testsQuery.isPending) return <LoadingState label={t('policies.tests.loading', 'Loading tests…')} />;
    if (testsQuery.isError)
      return <ErrorState error={testsQuery.error} onRetry={() => void testsQuery.refetch()} />;
    const tests = testsQuery.data;
    if (tests.length === 0) {
      return (
        <EmptyState
          message={t(
            'policies.tests.empty',
            'No tests yet. Pin a request from the simulator, or add one, to guard the policy against unwanted changes.',
          )}
        />
      );
    }
    const passing = tests.filter((test) => test.passing === true).length;
    return (
      <>
        <Text size="sm" c="dimmed" mb="xs" role="status">
          {t('policies.tests.summary', '{{passing}} of {{total}} passing', { passing, total: tests.length })}
        </Text>
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" aria-label={t('policies.tests.title', 'Policy tests')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('policies.tests.name', 'Test name')}</Table.Th>
                <Table.Th>{t('policies.tests.request', 'Request')}</Table.Th>
                <Table.Th>{t('policies.tests.expect', 'Expected decision')}</Table.Th>
                <Table.Th>{t('policies.tests.actual', 'Decided now')}</Table.Th>
                <Table.Th>{t('policies.tests.status', 'Status')}</Table.Th>
                <Table.Th ta="end">{t('policies.columns.actions', 'Actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tests.map((test) => (
                <Table.Tr key={test.id} data-testid="policy-test-row">
                  <Table.Td fw={500}>{test.name}</Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {test.request.destination}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {test.request.userId ? (
                        <UserName id={test.request.userId} />
                      ) : test.request.deviceId ? (
                        <DeviceSubject id={test.request.deviceId} />
                      ) : (
                        t('policies.tests.anyone', 'Anyone')
                      )}
                    </Text>
                  </Table.Td>
                  <Table.Td>{decisions[test.expect]}</Table.Td>
                  <Table.Td>{test.actual ? decisions[test.actual] : '—'}</Table.Td>
                  <Table.Td>
                    <TestStatus test={test} />
                  </Table.Td>
                  <Table.Td>
                    <Row gap={2} justify="flex-end" wrap="nowrap">
                      {canUpdate ? (
                        <Tooltip label={t('policies.list.edit', 'Edit')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('policies.tests.editLabel', 'Edit test {{name}}', {
                              name: test.name,
                            })}
                            onClick={() => setEditing({ test })}
                          >
                            <EditIcon />
                          </ActionIcon>
                        </Tooltip>
                      ) : null}
                      {canDelete ? (
                        <Tooltip label={t('policies.list.delete', 'Delete')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('policies.tests.deleteLabel', 'Delete test {{name}}', {
                              name: test.name,
                            })}
                            onClick={() => setToDelete(test)}
                          >
                            <TrashIcon />
                          </ActionIcon>
                        </Tooltip>
                      ) : null}
                    </Row>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </>
    );
  };

  return (
    <Stack gap="sm">
      <Row justify="space-between">
        <Text size="sm" c="dimmed" maw={640}>
          {t(
            'policies.tests.intro',
            'Each test is a request with the decision it must get. Saving a change that decides a test differently is refused.',
          )}
        </Text>
        {canCreate ? (
          <Button variant="light" onClick={() => setEditing({ test: null })}>
            {t('policies.tests.add', 'Add test')}
          </Button>
        ) : null}
      </Row>
      {renderBody()}
      {editing ? (
        <PolicyTestModal
          key={editing.test?.id ?? 'new'}
          test={editing.test}
          opened
          onClose={() => setEditing(null)}
        />
      ) : null}
      <Modal
        opened={toDelete !== null}
        onClose={() => setToDelete(null)}
        title={t('policies.tests.deleteTitle', 'Delete test?')}
      >
        <Stack gap="md">
          <Text size="sm">
            {t('policies.tests.deleteConfirm', 'Test {{name}} will no longer guard the policy.', {
              name: toDelete?.name ?? '',
            })}
          </Text>
          <Row gap="sm" justify="flex-end">
            <Button variant="default" onClick={() => setToDelete(null)}>
              {t('policies.form.cancel', 'Cancel')}
            </Button>
            <Button
              color="red"
              loading={deleteMutation.isPending}
              onClick={() => toDelete && deleteMutation.mutate([toDelete.id])}
            >
              {t('policies.list.delete', 'Delete')}
            </Button>
          </Row>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** "Device Laptop (alice@…)": the device a test's request comes from. */
function DeviceSubject({ id }: { id: string }) {
  const { t } = useTranslation();
  return <>{t('policies.tests.device', 'Device {{name}}', { name: useDeviceLabel(id) })}</>;
}

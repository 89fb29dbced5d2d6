import {
  Alert,
  Button,
  Drawer,
  Group as Row,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import {
  type LintFinding,
  POLICY_DESCRIPTION_MAX,
  POLICY_NAME_MAX,
  POLICY_TYPES,
  type Policy,
  PolicyInput,
  type PolicyTestFailure,
  type PolicyType,
} from '@palisade/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TestFailuresAlert } from '../../../components/policy/test-failures-alert';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { serverFieldErrors } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { isMissing, policyTestFailures } from '../../../lib/policy-errors';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { useApps, useCategories, useFeeds, useLocations } from '../api/lookups';
import { usePolicy, useSavePolicy } from '../api/policies';
import { usePreviewGateways } from '../api/preview-gateways';
import { useLint } from '../api/simulate';
import { SimulateButton } from '../simulator';
import {
  draftRuleIndex,
  emptyPolicyForm,
  emptyRule,
  type PolicyFormValues,
  policyToFormValues,
  type RuleFormValue,
  ruleIndexOfPath,
  type SystemRules,
  toPolicyInput,
} from '../utils/policy-form';
import { policyValidator } from '../utils/validation';
import { EveryoneConfirmModal } from './everyone-confirm-modal';
import { GatewayPreview } from './gateway-preview';
import { catalogName, usePolicyTypeLabels } from './labels';
import { OtherFindings } from './lint-findings';
import { RuleEditor } from './rule-editor';
import type { RuleObjectOptions } from './rule-options';
import { SystemRuleRow } from './system-rule-row';

/** Props of {@link PolicyEditor}. */
export interface PolicyEditorProps {
  /** A policy id, or `new`; null when the editor is closed. */
  policyId: string | null;
  /** Type of a new policy. */
  newType: PolicyType;
  /** Whether the user may save: `policies:update` for an existing policy, `policies:create` for a new one. */
  canEdit: boolean;
  onClose: () => void;
  /** A new policy was created: the address should name it from now on. */
  onCreated: (id: string) => void;
}

/**
 * The policy editor, in a large drawer so the list stays in place: name, description, type, enabled and the
 * ordered rules. It lints, tests the unsaved draft in the simulator, shows the lint findings of a save next
 * to the rules and the failing policy tests of a refused save.
 */
export function PolicyEditor({ policyId, newType, canEdit, onClose, onCreated }: PolicyEditorProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const isNew = policyId === 'new';
  const policyQuery = usePolicy(tenant, policyId ?? '', policyId !== null && !isNew);
  // A policy created here keeps its form (open rules, lint findings) when the address switches to its id.
  const [created, setCreated] = useState<{ id: string; key: string } | null>(null);

  const renderBody = () => {
    if (policyId === null) return null;
    if (isNew || (created && created.id === policyId)) {
      const key = isNew ? `new-${newType}` : (created?.key ?? policyId);
      return (
        <PolicyEditorForm
          key={key}
          policy={isNew ? null : (policyQuery.data ?? null)}
          newType={newType}
          canEdit={canEdit}
          onClose={onClose}
          onCreated={(id) => {
            setCreated({ id, key });
            onCreated(id);
          }}
        />
      );
    }
    if (policyQuery.isPending)
      return <LoadingState label={t('policies.editor.loading', 'Loading policy…')} />;
    if (policyQuery.isError && isMissing(policyQuery.error)) {
      return (
        <Alert color="yellow" variant="light" title={t('policies.editor.notFoundTitle', 'Policy not found')}>
          {t('policies.editor.notFound', 'This policy does not exist or was deleted.')}
        </Alert>
      );
    }
    if (policyQuery.isError) {
      return <ErrorState error={policyQuery.error} onRetry={() => void policyQuery.refetch()} />;
    }
    return (
      <PolicyEditorForm
        key={policyQuery.data.id}
        policy={policyQuery.data}
        newType={newType}
        canEdit={canEdit}
        onClose={onClose}
        onCreated={onCreated}
      />
    );
  };

  const title = isNew
    ? t('policies.editor.newTitle', 'New policy')
    : policyQuery.data
      ? canEdit
        ? t('policies.editor.editTitle', 'Edit {{name}}', { name: policyQuery.data.name })
        : policyQuery.data.name
      : t('policies.editor.title', 'Policy');

  return (
    <Drawer
      opened={policyId !== null}
      onClose={onClose}
      position="right"
      size="72rem"
      // The drawer's title is its heading (an h2): a Title inside it would nest one heading in another.
      title={title}
      styles={{ title: { fontSize: 'var(--mantine-h3-font-size)', fontWeight: 700 } }}
      closeButtonProps={{ 'aria-label': t('policies.editor.close', 'Close the editor') }}
    >
      {renderBody()}
    </Drawer>
  );
}

interface FormProps {
  policy: Policy | null;
  newType: PolicyType;
  canEdit: boolean;
  onClose: () => void;
  onCreated: (id: string) => void;
}

/** The id the server gives a new policy while it lints a draft. */
const DRAFT_POLICY_ID = 'draft';

/**
 * Which findings belong next to which rule: by rule id, by the server's draft rule ids (`draft-rule-N` = the
 * editor's Nth rule) or, as a last resort, by name inside this policy. Findings about this policy that fit no
 * rule of the editor are returned apart.
 */
function findingsByRule(
  findings: LintFinding[],
  rules: RuleFormValue[],
  policyId: string | null,
  name: string,
) {
  const byKey = new Map<string, LintFinding[]>();
  const others: LintFinding[] = [];
  const isThisPolicy = (ref: { policyId: string; policyName: string } | null) =>
    ref !== null &&
    (ref.policyId === (policyId ?? DRAFT_POLICY_ID) ||
      (ref.policyId === DRAFT_POLICY_ID && ref.policyName === name));
  const ruleOf = (ref: LintFinding['rule']) => {
    if (ref === null) return undefined;
    const byId = rules.find((candidate) => candidate.id !== undefined && candidate.id === ref.ruleId);
    if (byId) return byId;
    if (!isThisPolicy(ref)) return undefined;
    const draftIndex = draftRuleIndex(ref.ruleId);
    if (draftIndex !== null) return rules[draftIndex];
    return rules.find((candidate) => candidate.name === ref.ruleName);
  };
  for (const finding of findings) {
    const rule = ruleOf(finding.rule);
    if (rule) byKey.set(rule.key, [...(byKey.get(rule.key) ?? []), finding]);
    else if (isThisPolicy(finding.rule) || isThisPolicy(finding.other)) others.push(finding);
  }
  return { byKey, others };
}

function PolicyEditorForm({ policy, newType, canEdit, onClose, onCreated }: FormProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const typeLabels = usePolicyTypeLabels();
  const initial = useMemo(
    () =>
      policy
        ? policyToFormValues(policy)
        : { values: emptyPolicyForm(newType), systemRules: { leading: [], trailing: [] } as SystemRules },
    [policy, newType],
  );
  const [systemRules, setSystemRules] = useState<SystemRules>(initial.systemRules);
  const [policyId, setPolicyId] = useState<string | null>(policy?.id ?? null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [findings, setFindings] = useState<LintFinding[] | null>(null);
  const [failures, setFailures] = useState<PolicyTestFailure[] | null>(null);
  // How many policy groups carry the policy (a new one: none), and the values of a save awaiting "everyone?".
  // Without policy groups (the tenant's `policyGroups` configuration flag off) every policy applies to everyone:
  // there is nothing else to choose, so nothing is asked.
  const hasPolicyGroups = useConfigFlag('policyGroups');
  const [policyGroupCount, setPolicyGroupCount] = useState(policy?.policyGroups.length ?? 0);
  const [awaitingConfirmation, setAwaitingConfirmation] = useState<PolicyFormValues | null>(null);
  const form = useForm<PolicyFormValues>({
    mode: 'controlled',
    initialValues: initial.values,
    validate: policyValidator(PolicyInput, t, toPolicyInput),
  });
  const values = form.getValues();

  const appsQuery = useApps(tenant);
  const categoriesQuery = useCategories(tenant);
  const feedsQuery = useFeeds(tenant);
  const locationsQuery = useLocations(tenant);
  const options: RuleObjectOptions = useMemo(
    () => ({
      apps: (appsQuery.data ?? []).map((app) => ({ value: app.appid, label: app.appname })),
      categories: (categoriesQuery.data ?? []).map((category) => ({
        value: category.id,
        label: catalogName(t, 'category', category.id, category.name),
      })),
      feeds: (feedsQuery.data ?? []).map((feed) => ({
        value: feed.id,
        label: catalogName(t, 'feed', feed.id, feed.name),
      })),
      locations: (locationsQuery.data ?? []).map((location) => ({
        value: location.id,
        label: location.name,
      })),
    }),
    [appsQuery.data, categoriesQuery.data, feedsQuery.data, locationsQuery.data, t],
  );

  const saveMutation = useSavePolicy(tenant, { onError: () => {} });
  const lintMutation = useLint(tenant);
  const previewMutation = usePreviewGateways(tenant);
  const canPreview = useCan('gateways:view');
  const isReadOnly = !canEdit;
  const draft = { ...(policyId ? { id: policyId } : {}), policy: toPolicyInput(values) };

  /** Opens the rules that have errors and focuses the first field in error. */
  const revealErrors = (errors: FormErrors) => {
    const keys = Object.keys(errors);
    const indexes = keys.map(ruleIndexOfPath).filter((index): index is number => index !== null);
    if (indexes.length > 0) {
      const rules = form.getValues().rules;
      setExpanded((previous) => new Set([...previous, ...indexes.map((index) => rules[index]?.key ?? '')]));
    }
    const first = keys[0];
    if (first) {
      // The rule bodies render on the next frame; focus once they are there.
      requestAnimationFrame(() => form.getInputNode(first)?.focus());
    }
  };

  const save = async (formValues: PolicyFormValues) => {
    setFailures(null);
    try {
      const saved = await saveMutation.mutateAsync({ id: policyId, body: toPolicyInput(formValues) });
      const next = policyToFormValues(saved.policy);
      // New rules got ids: keep the open ones open under their new keys.
      const openIndexes = formValues.rules.flatMap((rule, index) => (expanded.has(rule.key) ? [index] : []));
      form.setValues(next.values);
      form.resetDirty(next.values);
      setExpanded(new Set(openIndexes.map((index) => next.values.rules[index]?.key ?? '')));
      setSystemRules(next.systemRules);
      setFindings(saved.lint);
      showSuccess(t('policies.editor.saved', 'Policy {{name}} saved.', { name: saved.policy.name }));
      setPolicyGroupCount(saved.policy.policyGroups.length);
      if (!policyId) {
        setPolicyId(saved.policy.id);
        onCreated(saved.policy.id);
      }
    } catch (error) {
      const failed = policyTestFailures(error);
      if (failed) {
        setFailures(failed);
        return;
      }
      const errors = serverFieldErrors(error, t);
      if (Object.keys(errors).length > 0) {
        form.setErrors(errors);
        revealErrors(errors);
      }
      showMutationError(t, error);
    }
  };

  // An enabled policy in no policy group decides for everyone: saving it is confirmed first (with policy groups).
  const handleSubmit = form.onSubmit((formValues) => {
    if (hasPolicyGroups && formValues.enabled && policyGroupCount === 0) setAwaitingConfirmation(formValues);
    else void save(formValues);
  }, revealErrors);

  const handleConfirmEveryone = () => {
    const confirmed = awaitingConfirmation;
    setAwaitingConfirmation(null);
    if (confirmed) void save(confirmed);
  };

  const handleLint = () => {
    lintMutation.mutate(
      { draft },
      {
        onSuccess: (result) => setFindings(result),
        onError: (error) => showMutationError(t, error),
      },
    );
  };

  /** Asks what saving the draft would push to the gateways; the save's own problems show on the form. */
  const handlePreview = () => {
    previewMutation.mutate(
      { policyId: policyId ?? null, policy: toPolicyInput(values) },
      {
        onError: (error) => {
          // The draft is `body.policy` here: its fields are the form's.
          const errors = Object.fromEntries(
            Object.entries(serverFieldErrors(error, t)).map(([path, message]) => [
              path.replace(/^policy\./, ''),
              message,
            ]),
          );
          if (Object.keys(errors).length > 0) {
            form.setErrors(errors);
            revealErrors(errors);
          }
          showMutationError(t, error);
        },
      },
    );
  };

  const addRule = () => {
    const rule = emptyRule(values.type === 'route' ? 'ROUTE' : 'dmn', values.type, values.rules);
    form.insertListItem('rules', rule);
    setExpanded((previous) => new Set([...previous, rule.key]));
  };

  const grouped = findingsByRule(findings ?? [], values.rules, policyId, values.name);

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={t('policies.editor.formLabel', 'Policy')}>
      <Stack gap="md">
        {failures ? <TestFailuresAlert failures={failures} onClose={() => setFailures(null)} /> : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('policies.editor.name', 'Name')}
            required
            maxLength={POLICY_NAME_MAX}
            readOnly={isReadOnly}
            autoComplete="off"
            {...form.getInputProps('name')}
          />
          <Select
            label={t('policies.editor.type', 'Type')}
            description={t(
              'policies.editor.typeHint',
              'User policies apply to users, device policies to devices.',
            )}
            data={POLICY_TYPES.map((type) => ({ value: type, label: typeLabels[type] }))}
            allowDeselect={false}
            readOnly={isReadOnly}
            {...form.getInputProps('type')}
          />
        </SimpleGrid>
        <Textarea
          label={t('policies.editor.description', 'Description (optional)')}
          rows={2}
          resize="vertical"
          maxLength={POLICY_DESCRIPTION_MAX}
          readOnly={isReadOnly}
          {...form.getInputProps('description')}
        />
        <Switch
          label={t('policies.editor.enabled', 'Policy enabled')}
          disabled={isReadOnly}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <Switch
          label={t('policies.editor.blockPage', 'Show the block page')}
          description={t(
            'policies.editor.blockPageHint',
            'A blocked site answers with a page that says why and lets the user request access. Off: DNS blocks answer "no such domain" and other blocks refuse the connection silently.',
          )}
          disabled={isReadOnly}
          {...form.getInputProps('blockPage', { type: 'checkbox' })}
        />
        <Switch
          label={t('policies.editor.fullTunnel', 'Full tunnel')}
          description={t(
            'policies.editor.fullTunnelHint',
            'The devices this policy applies to send all their traffic through the gateway (AllowedIPs 0.0.0.0/0, ::/0, the gateway as DNS). Off: only the routed networks (split tunnel). Devices with the standard WireGuard apps need their configuration downloaded again.',
          )}
          disabled={isReadOnly}
          {...form.getInputProps('fullTunnel', { type: 'checkbox' })}
        />

        <section aria-labelledby="policy-rules-heading">
          <Row justify="space-between" mb="xs">
            <Title order={3} size="h4" id="policy-rules-heading">
              {t('policies.editor.rules', 'Rules')}
            </Title>
            {!isReadOnly ? (
              <Button size="xs" variant="light" onClick={addRule}>
                {t('policies.editor.addRule', 'Add rule')}
              </Button>
            ) : null}
          </Row>
          <Text size="xs" c="dimmed" mb="xs">
            {t(
              'policies.editor.rulesHint',
              'Inside a layer the first matching rule decides, from the top. System rules are kept as they are.',
            )}
          </Text>
          {typeof form.errors.rules === 'string' ? (
            <Text size="sm" c="red" role="alert" mb="xs">
              {form.errors.rules}
            </Text>
          ) : null}
          {values.rules.length === 0 && systemRules.leading.length + systemRules.trailing.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('policies.editor.noRules', 'No rules yet.')}
            </Text>
          ) : (
            <Stack component="ol" gap="xs" p={0} m={0}>
              {systemRules.leading.map((rule) => (
                <SystemRuleRow key={rule.id} rule={rule} />
              ))}
              {values.rules.map((rule, index) => (
                <RuleEditor
                  key={rule.key}
                  form={form}
                  index={index}
                  count={values.rules.length}
                  isExpanded={expanded.has(rule.key)}
                  onToggle={() =>
                    setExpanded((previous) => {
                      const next = new Set(previous);
                      if (next.has(rule.key)) next.delete(rule.key);
                      else next.add(rule.key);
                      return next;
                    })
                  }
                  options={options}
                  findings={grouped.byKey.get(rule.key) ?? []}
                  isReadOnly={isReadOnly}
                />
              ))}
              {systemRules.trailing.map((rule) => (
                <SystemRuleRow key={rule.id} rule={rule} />
              ))}
            </Stack>
          )}
        </section>

        <OtherFindings findings={grouped.others} title={t('policies.lint.otherTitle', 'More findings')} />
        {findings !== null && findings.length === 0 ? (
          <Text size="sm" c="teal" role="status">
            {t('policies.lint.clean', 'No lint findings.')}
          </Text>
        ) : null}

        {previewMutation.data && !previewMutation.isPending ? (
          <GatewayPreview preview={previewMutation.data} />
        ) : null}

        <Row gap="sm" justify="space-between">
          <Row gap="sm">
            {!isReadOnly ? (
              <Button type="submit" loading={saveMutation.isPending}>
                {t('policies.editor.save', 'Save')}
              </Button>
            ) : null}
            <Button variant="default" onClick={onClose} disabled={saveMutation.isPending}>
              {isReadOnly ? t('policies.editor.closeButton', 'Close') : t('policies.form.cancel', 'Cancel')}
            </Button>
          </Row>
          <Row gap="sm">
            <Button variant="default" onClick={handleLint} loading={lintMutation.isPending}>
              {t('policies.editor.lint', 'Lint')}
            </Button>
            {!isReadOnly && canPreview ? (
              <Button variant="default" onClick={handlePreview} loading={previewMutation.isPending}>
                {t('policies.editor.preview', 'Preview on gateways')}
              </Button>
            ) : null}
            <SimulateButton draft={draft} />
          </Row>
        </Row>
      </Stack>
      <EveryoneConfirmModal
        opened={awaitingConfirmation !== null}
        name={awaitingConfirmation?.name ?? ''}
        isSaving={saveMutation.isPending}
        onClose={() => setAwaitingConfirmation(null)}
        onConfirm={handleConfirmEveryone}
      />
    </form>
  );
}

import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Collapse,
  MultiSelect,
  Paper,
  Group as Row,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  type LintFinding,
  MATCHER_MAX,
  type PolicyRule,
  RULE_NAME_MAX,
  type RuleType,
  splitMatcher,
} from '@palisade/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SystemBadge } from '../../../components/policy/rule-ref';
import { ruleMatcherSummary } from '../../../lib/rule-summary';
import {
  ACTIONS_WITH_TARGET,
  allowedActions,
  allowedRuleTypes,
  type PolicyFormValues,
  TYPES_WITH_CATEGORIES,
  TYPES_WITH_FEEDS,
  TYPES_WITH_PORTS,
} from '../utils/policy-form';
import { ArrowDownIcon, ArrowUpIcon, TrashIcon } from './icons';
import { useActionLabels, useRuleTypeHelp, useRuleTypeLabels } from './labels';
import { RuleFindings } from './lint-findings';

/** An option of the object pickers. */
export interface Option {
  value: string;
  label: string;
}

/** The objects a rule can refer to, loaded once by the editor. */
export interface RuleObjectOptions {
  apps: Option[];
  categories: Option[];
  feeds: Option[];
  locations: Option[];
}

/** Monday first; values are the contract's day numbers (0 = Sunday). */
const WEEK = [1, 2, 3, 4, 5, 6, 0];
const DEFAULT_SCHEDULE = { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' };

function weekdayName(day: number, locale: string): string {
  // 2024-01-07 was a Sunday.
  return new Date(Date.UTC(2024, 0, 7 + day)).toLocaleDateString(locale, {
    weekday: 'short',
    timeZone: 'UTC',
  });
}

/** Keeps the values of a multi-select that the options do not know (yet) visible by their id. */
function withPicked(options: Option[], picked: string[]): Option[] {
  const known = new Set(options.map((option) => option.value));
  return [...options, ...picked.filter((id) => !known.has(id)).map((id) => ({ value: id, label: id }))];
}

/** Props of {@link RuleEditor}. */
export interface RuleEditorProps {
  form: UseFormReturnType<PolicyFormValues>;
  index: number;
  count: number;
  isExpanded: boolean;
  onToggle: () => void;
  options: RuleObjectOptions;
  findings: LintFinding[];
  isReadOnly: boolean;
}

/**
 * One rule of the policy editor: a summary row (position, name, type, action, findings, move and delete) and,
 * when expanded, its fields. The fields the chosen type or action do not use are hidden.
 */
export function RuleEditor({
  form,
  index,
  count,
  isExpanded,
  onToggle,
  options,
  findings,
  isReadOnly,
}: RuleEditorProps) {
  const { t, i18n } = useTranslation();
  const typeLabels = useRuleTypeLabels();
  const typeHelp = useRuleTypeHelp();
  const actionLabels = useActionLabels();
  const bodyId = useId();
  const { rules, type: policyType } = form.getValues();
  const rule = rules[index];
  const path = (field: string) => `rules.${index}.${field}`;
  const hasErrors = Object.keys(form.errors).some((key) => key.startsWith(`rules.${index}.`));
  const title = rule.name.trim() || t('policies.rules.untitled', 'Rule {{n}}', { n: index + 1 });
  const locale = i18n.resolvedLanguage ?? i18n.language;

  const handleTypeChange = (value: string | null) => {
    if (!value) return;
    const type = value as RuleType;
    form.setFieldValue(path('type'), type);
    const actions = allowedActions(type, policyType);
    if (!actions.includes(rule.action) && actions.length > 0) form.setFieldValue(path('action'), actions[0]);
  };

  const matcherField =
    rule.type === 'app' ? (
      <MultiSelect
        label={t('policies.rules.apps', 'Applications')}
        description={typeHelp.app}
        placeholder={t('policies.rules.appsPlaceholder', 'Search applications')}
        data={withPicked(options.apps, splitMatcher(rule.url))}
        value={splitMatcher(rule.url)}
        onChange={(ids) => form.setFieldValue(path('url'), ids.join(';'))}
        error={form.errors[path('url')]}
        searchable
        limit={100}
        hidePickedOptions
        nothingFoundMessage={t('policies.rules.noApp', 'No matching application')}
        disabled={isReadOnly}
      />
    ) : (
      <Textarea
        label={t('policies.rules.matcher', 'Matches')}
        description={typeHelp[rule.type]}
        rows={3}
        resize="vertical"
        maxLength={MATCHER_MAX}
        spellCheck={false}
        readOnly={isReadOnly}
        {...form.getInputProps(path('url'))}
      />
    );

  const targetLabel =
    rule.action === 'rewrite'
      ? t('policies.rules.targetRewrite', 'Rewrite to (IP or domain)')
      : rule.action === 'route'
        ? t('policies.rules.targetRoute', 'Gateway')
        : t('policies.rules.targetQos', 'QoS class');

  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      component="li"
      data-testid="rule-editor"
      style={{ listStyle: 'none', borderColor: hasErrors ? 'var(--mantine-color-red-6)' : undefined }}
    >
      <Row justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Row gap="xs" wrap="wrap">
            <Text size="sm" c="dimmed" fw={600}>
              {index + 1}.
            </Text>
            <Text size="sm" fw={600}>
              {title}
            </Text>
            <Badge size="xs" variant="light">
              {typeLabels[rule.type]}
            </Badge>
            <Badge size="xs" variant="outline" color={rule.action === 'block' ? 'red' : 'gray'}>
              {actionLabels[rule.action]}
            </Badge>
            {!rule.enabled ? (
              <Badge size="xs" variant="outline" color="gray">
                {t('policies.rules.disabled', 'Disabled')}
              </Badge>
            ) : null}
            {hasErrors ? (
              <Text size="xs" c="red">
                {t('policies.rules.hasErrors', 'Needs attention')}
              </Text>
            ) : null}
          </Row>
          {!isExpanded ? (
            <Text size="xs" c="dimmed" lineClamp={1} style={{ overflowWrap: 'anywhere' }}>
              {ruleMatcherSummary(t, rule, {
                app: (id) => options.apps.find((app) => app.value === id)?.label,
                category: (id) => options.categories.find((c) => c.value === id)?.label,
                feed: (id) => options.feeds.find((f) => f.value === id)?.label,
              })}
            </Text>
          ) : null}
          <RuleFindings findings={findings} />
        </Stack>
        <Row gap={2} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={onToggle}
            aria-expanded={isExpanded}
            aria-controls={bodyId}
          >
            {isExpanded
              ? t('policies.rules.collapse', 'Close')
              : isReadOnly
                ? t('policies.rules.show', 'Show')
                : t('policies.rules.edit', 'Edit')}
            <VisuallyHidden>{` ${title}`}</VisuallyHidden>
          </Button>
          {!isReadOnly ? (
            <>
              <Tooltip label={t('policies.list.moveUp', 'Move up')}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('policies.rules.moveUp', 'Move rule {{name}} up', { name: title })}
                  disabled={index === 0}
                  onClick={() => form.reorderListItem('rules', { from: index, to: index - 1 })}
                >
                  <ArrowUpIcon />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('policies.list.moveDown', 'Move down')}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('policies.rules.moveDown', 'Move rule {{name}} down', { name: title })}
                  disabled={index === count - 1}
                  onClick={() => form.reorderListItem('rules', { from: index, to: index + 1 })}
                >
                  <ArrowDownIcon />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('policies.rules.delete', 'Delete rule')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('policies.rules.deleteLabel', 'Delete rule {{name}}', { name: title })}
                  onClick={() => form.removeListItem('rules', index)}
                >
                  <TrashIcon />
                </ActionIcon>
              </Tooltip>
            </>
          ) : null}
        </Row>
      </Row>
      <Collapse expanded={isExpanded} id={bodyId}>
        {isExpanded ? (
          <Stack gap="sm" mt="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <TextInput
                label={t('policies.rules.name', 'Rule name')}
                required
                maxLength={RULE_NAME_MAX}
                readOnly={isReadOnly}
                {...form.getInputProps(path('name'))}
              />
              <Select
                label={t('policies.rules.type', 'Type')}
                data={allowedRuleTypes(policyType).map((type) => ({ value: type, label: typeLabels[type] }))}
                allowDeselect={false}
                value={rule.type}
                onChange={handleTypeChange}
                error={form.errors[path('type')]}
                readOnly={isReadOnly}
              />
              <Select
                label={t('policies.rules.action', 'Action')}
                data={allowedActions(rule.type, policyType).map((action) => ({
                  value: action,
                  label: actionLabels[action],
                }))}
                allowDeselect={false}
                readOnly={isReadOnly}
                {...form.getInputProps(path('action'))}
              />
            </SimpleGrid>
            {matcherField}
            {ACTIONS_WITH_TARGET.includes(rule.action) || TYPES_WITH_PORTS.includes(rule.type) ? (
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                {ACTIONS_WITH_TARGET.includes(rule.action) ? (
                  <TextInput
                    label={targetLabel}
                    required
                    readOnly={isReadOnly}
                    {...form.getInputProps(path('target'))}
                  />
                ) : null}
                {TYPES_WITH_PORTS.includes(rule.type) ? (
                  <TextInput
                    label={t('policies.rules.ports', 'Ports (optional)')}
                    description={t('policies.rules.portsHint', 'e.g. 443, 8000-8080; any port when empty.')}
                    readOnly={isReadOnly}
                    {...form.getInputProps(path('ports'))}
                  />
                ) : null}
              </SimpleGrid>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              {TYPES_WITH_CATEGORIES.includes(rule.type) ? (
                <MultiSelect
                  label={t('policies.rules.categories', 'Web categories')}
                  data={withPicked(options.categories, rule.categories)}
                  searchable
                  hidePickedOptions
                  disabled={isReadOnly}
                  nothingFoundMessage={t('policies.rules.nothingFound', 'Nothing found')}
                  {...form.getInputProps(path('categories'))}
                />
              ) : null}
              {TYPES_WITH_FEEDS.includes(rule.type) ? (
                <MultiSelect
                  label={t('policies.rules.feeds', 'Threat-intel feeds')}
                  data={withPicked(options.feeds, rule.feeds)}
                  searchable
                  hidePickedOptions
                  disabled={isReadOnly}
                  nothingFoundMessage={t('policies.rules.nothingFound', 'Nothing found')}
                  {...form.getInputProps(path('feeds'))}
                />
              ) : null}
              <MultiSelect
                label={t('policies.rules.locations', 'Only from locations')}
                description={t('policies.rules.locationsHint', 'Anywhere when empty.')}
                data={withPicked(options.locations, rule.locations)}
                searchable
                hidePickedOptions
                disabled={isReadOnly}
                nothingFoundMessage={t('policies.rules.nothingFound', 'Nothing found')}
                {...form.getInputProps(path('locations'))}
              />
            </SimpleGrid>
            <Checkbox
              label={t('policies.rules.scheduled', 'Only at certain times')}
              checked={rule.schedule !== null}
              disabled={isReadOnly}
              onChange={(event) =>
                form.setFieldValue(
                  path('schedule'),
                  event.currentTarget.checked ? { ...DEFAULT_SCHEDULE } : null,
                )
              }
            />
            {rule.schedule ? (
              <Stack gap="xs" pl="md">
                <Checkbox.Group
                  label={t('policies.rules.days', 'Days')}
                  value={rule.schedule.days.map(String)}
                  onChange={(days) => form.setFieldValue(path('schedule.days'), days.map(Number))}
                  error={form.errors[path('schedule.days')] ?? form.errors[path('schedule')]}
                  readOnly={isReadOnly}
                >
                  <Row gap="sm" mt={4}>
                    {WEEK.map((day) => (
                      <Checkbox key={day} value={String(day)} label={weekdayName(day, locale)} />
                    ))}
                  </Row>
                </Checkbox.Group>
                <Row gap="sm" align="flex-start">
                  <TextInput
                    type="time"
                    label={t('policies.rules.from', 'From')}
                    readOnly={isReadOnly}
                    {...form.getInputProps(path('schedule.from'))}
                  />
                  <TextInput
                    type="time"
                    label={t('policies.rules.to', 'To')}
                    description={t('policies.rules.timeHint', 'UTC; a window may cross midnight.')}
                    readOnly={isReadOnly}
                    {...form.getInputProps(path('schedule.to'))}
                  />
                </Row>
              </Stack>
            ) : null}
            <Switch
              label={t('policies.rules.enabled', 'Rule enabled')}
              disabled={isReadOnly}
              {...form.getInputProps(path('enabled'), { type: 'checkbox' })}
            />
          </Stack>
        ) : null}
      </Collapse>
    </Paper>
  );
}

/** A system rule: shown with its badge, read-only and not removable. */
export function SystemRuleRow({ rule }: { rule: PolicyRule }) {
  const { t } = useTranslation();
  const typeLabels = useRuleTypeLabels();
  const actionLabels = useActionLabels();
  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      component="li"
      bg="var(--mantine-color-default-hover)"
      style={{ listStyle: 'none' }}
    >
      <Row gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {rule.name}
        </Text>
        <SystemBadge />
        <Badge size="xs" variant="light">
          {typeLabels[rule.type]}
        </Badge>
        <Badge size="xs" variant="outline" color={rule.action === 'block' ? 'red' : 'gray'}>
          {actionLabels[rule.action]}
        </Badge>
      </Row>
      <Text size="xs" c="dimmed" mt={4} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
        {rule.url || t('policies.rules.emptyMatcher', '(no matcher)')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('policies.rules.systemHint', 'Managed by the console; it cannot be edited or removed here.')}
      </Text>
    </Paper>
  );
}

import { Accordion, Alert, Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import type { TemplateApplyResult, TemplatePreview } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { changeLabel } from './labels';

/** Per tenant: what applying would create, update or leave, the changes, and the pinned tests it would break. */
export function TemplatePreviewList({ tenants }: { tenants: TemplatePreview[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {tenants.map((preview) => {
        const all = [...preview.policies, ...preview.objects];
        const count = (change: string) => all.filter((item) => item.change === change).length;
        const changed = preview.policies.filter((p) => p.diff.length > 0);
        return (
          <Card key={preview.tenant} withBorder padding="md" component="section" aria-label={preview.tenant}>
            <Stack gap="xs">
              <Group justify="space-between">
                <Title order={3} size="h5">
                  {preview.tenant}
                </Title>
                <Text size="sm">
                  {t(
                    'policyTemplates.preview.counts',
                    '{{create}} to create, {{update}} to update, {{unchanged}} unchanged',
                    {
                      create: count('create'),
                      update: count('update'),
                      unchanged: count('unchanged'),
                    },
                  )}
                </Text>
              </Group>
              <List size="sm" spacing={2}>
                {preview.policies.map((p) => (
                  <List.Item key={`policy-${p.name}`}>
                    {t('policyTemplates.preview.policy', 'Policy {{name}}', { name: p.name })}:{' '}
                    <Badge size="sm" variant="light">
                      {changeLabel(t, p.change)}
                    </Badge>
                  </List.Item>
                ))}
                {preview.objects.map((o) => (
                  <List.Item key={`${o.kind}-${o.name}`}>
                    {t(`policyTemplates.objectKind.${o.kind}`, o.kind)} {o.name}:{' '}
                    <Badge size="sm" variant="light">
                      {changeLabel(t, o.change)}
                    </Badge>
                  </List.Item>
                ))}
              </List>
              {preview.failingTests.length > 0 ? (
                <Alert
                  color="red"
                  title={t('policyTemplates.preview.testsFail', 'Pinned policy tests would fail here')}
                >
                  <Text size="sm">
                    {t(
                      'policyTemplates.preview.refusedHere',
                      'Applying is refused in this tenant while they would break.',
                    )}
                  </Text>
                  <List size="sm">
                    {preview.failingTests.map((test) => (
                      <List.Item key={test.testId}>
                        {t(
                          'policyTemplates.preview.failingTest',
                          '{{name}}: expects {{expect}}, would be {{actual}}',
                          {
                            name: test.name,
                            expect: t(`policyTemplates.decision.${test.expect}`, test.expect),
                            actual: t(`policyTemplates.decision.${test.actual}`, test.actual),
                          },
                        )}
                      </List.Item>
                    ))}
                  </List>
                </Alert>
              ) : null}
              {preview.error ? (
                <Alert
                  color="red"
                  title={t('policyTemplates.preview.error', 'This tenant cannot take the template')}
                >
                  {t(`error.${preview.error.errcode}`, preview.error.message)}
                  {preview.error.details?.map((d) => (
                    <Text size="sm" key={d.path}>
                      {d.path}: {t(d.message, { defaultValue: d.message })}
                    </Text>
                  ))}
                </Alert>
              ) : null}
              {changed.length > 0 ? (
                <Accordion variant="contained">
                  {changed.map((p) => (
                    <Accordion.Item key={p.name} value={p.name}>
                      <Accordion.Control>
                        {t('policyTemplates.preview.showChanges', 'Changes to {{name}} ({{count, number}})', {
                          name: p.name,
                          count: p.diff.length,
                        })}
                      </Accordion.Control>
                      <Accordion.Panel>
                        <List size="sm" spacing={4}>
                          {p.diff.map((line) => (
                            <List.Item key={line.path}>
                              <Text span fw={500} size="sm">
                                {line.path}
                              </Text>
                              :{' '}
                              {line.before === null
                                ? t('policyTemplates.preview.added', 'added: {{after}}', {
                                    after: line.after,
                                  })
                                : line.after === null
                                  ? t('policyTemplates.preview.removed', 'removed: {{before}}', {
                                      before: line.before,
                                    })
                                  : t('policyTemplates.preview.changed', '{{before}} → {{after}}', {
                                      before: line.before,
                                      after: line.after,
                                    })}
                            </List.Item>
                          ))}
                        </List>
                      </Accordion.Panel>
                    </Accordion.Item>
                  ))}
                </Accordion>
              ) : null}
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}

const RESULT_COLORS = { applied: 'green', refused: 'red', failed: 'red' } as const;

/** How the apply went in each tenant. */
export function TemplateApplyResults({ tenants }: { tenants: TemplateApplyResult[] }) {
  const { t } = useTranslation();
  const label = (result: TemplateApplyResult['result']) =>
    ({
      applied: t('policyTemplates.result.applied', 'Applied'),
      refused: t('policyTemplates.result.refused', 'Refused: pinned tests would break'),
      failed: t('policyTemplates.result.failed', 'Failed'),
    })[result];
  return (
    <List spacing="xs" aria-label={t('policyTemplates.result.title', 'Apply results')}>
      {tenants.map((r) => (
        <List.Item key={r.tenant}>
          <Group gap="xs">
            <Text size="sm" fw={500}>
              {r.tenant}
            </Text>
            <Badge color={RESULT_COLORS[r.result]} variant="light">
              {label(r.result)}
            </Badge>
            {r.result === 'applied' ? (
              <Text size="sm">
                {t(
                  'policyTemplates.result.counts',
                  '{{created}} created, {{updated}} updated, {{unchanged}} unchanged',
                  {
                    created: r.created,
                    updated: r.updated,
                    unchanged: r.unchanged,
                  },
                )}
              </Text>
            ) : null}
            {r.failingTests.length > 0 ? (
              <Text size="sm" c="red">
                {r.failingTests.map((f) => f.name).join(', ')}
              </Text>
            ) : null}
            {r.error ? (
              <Text size="sm" c="red">
                {t(`error.${r.error.errcode}`, r.error.message)}
              </Text>
            ) : null}
          </Group>
        </List.Item>
      ))}
    </List>
  );
}

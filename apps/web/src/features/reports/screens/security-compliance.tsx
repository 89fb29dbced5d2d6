import { Alert, Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { CheckStatus, ComplianceCheck, ComplianceCheckId, EvidenceNote } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { useComplianceReport } from '../api/get-reports';
import { KpiGrid } from '../components/kpi-grid';
import { ReportBody } from '../components/report-body';
import { ReportPage } from '../components/report-page';
import { type ReportFormat, useReportFormat } from '../utils/format';

const STATUS_COLORS: Record<CheckStatus, string> = { pass: 'green', warn: 'orange', fail: 'red' };

function statusNames(t: TFunction): Record<CheckStatus, string> {
  return {
    pass: t('reports.compliance.status.pass', 'Passed'),
    warn: t('reports.compliance.status.warn', 'Warning'),
    fail: t('reports.compliance.status.fail', 'Failed'),
  };
}

function checkTexts(t: TFunction): Record<ComplianceCheckId, { title: string; remediation: string }> {
  return {
    'admin-mfa': {
      title: t('reports.compliance.checks.adminMfa.title', 'Administrators use two-factor authentication'),
      remediation: t(
        'reports.compliance.checks.adminMfa.remediation',
        'Ask each administrator listed to turn on two-factor authentication in their account settings, or suspend accounts that are no longer needed.',
      ),
    },
    'admin-sign-in': {
      title: t(
        'reports.compliance.checks.adminSignIn.title',
        'Administrators signed in within the last 90 days',
      ),
      remediation: t(
        'reports.compliance.checks.adminSignIn.remediation',
        'Suspend or remove administrator accounts that are no longer used.',
      ),
    },
    'threat-intel': {
      title: t('reports.compliance.checks.threatIntel.title', 'Threat intelligence is enabled'),
      remediation: t(
        'reports.compliance.checks.threatIntel.remediation',
        'Enable at least one threat-intelligence feed under Policies › Threat intelligence, and fix feeds whose refresh fails.',
      ),
    },
    'security-categories': {
      title: t('reports.compliance.checks.securityCategories.title', 'Security categories are blocked'),
      remediation: t(
        'reports.compliance.checks.securityCategories.remediation',
        'Set the categories listed to Block under Policies › Web categories, or block them in an enabled policy.',
      ),
    },
    'stale-devices': {
      title: t('reports.compliance.checks.staleDevices.title', 'Devices connected within the last 30 days'),
      remediation: t(
        'reports.compliance.checks.staleDevices.remediation',
        'Disable or delete devices that have not connected for 30 days.',
      ),
    },
    'device-posture': {
      title: t('reports.compliance.checks.devicePosture.title', 'Devices pass their posture checks'),
      remediation: t(
        'reports.compliance.checks.devicePosture.remediation',
        'Fix the failing checks on the devices listed (disk encryption, firewall, screen lock, antivirus, operating system updates).',
      ),
    },
  };
}

function noteNames(t: TFunction): Record<EvidenceNote, string> {
  return {
    mfaOff: t('reports.compliance.notes.mfaOff', 'Two-factor authentication off'),
    mfaOn: t('reports.compliance.notes.mfaOn', 'Two-factor authentication on'),
    neverSignedIn: t('reports.compliance.notes.neverSignedIn', 'Never signed in'),
    lastSignIn: t('reports.compliance.notes.lastSignIn', 'Last sign-in'),
    feedEnabled: t('reports.compliance.notes.feedEnabled', 'Enabled'),
    feedDisabled: t('reports.compliance.notes.feedDisabled', 'Disabled'),
    feedError: t('reports.compliance.notes.feedError', 'Refresh failed'),
    notBlocked: t('reports.compliance.notes.notBlocked', 'Not blocked'),
    blockedByTenant: t('reports.compliance.notes.blockedByTenant', 'Blocked for the whole tenant'),
    blockedByPolicy: t('reports.compliance.notes.blockedByPolicy', 'Blocked by a policy'),
    neverSeen: t('reports.compliance.notes.neverSeen', 'Never seen'),
    lastSeen: t('reports.compliance.notes.lastSeen', 'Last seen'),
    postureFailing: t('reports.compliance.notes.postureFailing', 'Posture checks failing'),
  };
}

/** One check: its state, what it checks, its evidence, and what to do when it did not pass. */
function CheckCard({ check, format }: { check: ComplianceCheck; format: ReportFormat }) {
  const { t } = useTranslation();
  const id = useId();
  const text = checkTexts(t)[check.id];
  const notes = noteNames(t);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={id}>
      <Group gap="sm" mb="sm" wrap="nowrap" align="flex-start">
        <Badge color={STATUS_COLORS[check.status]} variant="filled" miw={110}>
          {statusNames(t)[check.status]}
        </Badge>
        <Title order={2} size="h5" id={id}>
          {text.title}
        </Title>
      </Group>
      {check.evidence.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('reports.compliance.noEvidence', 'Nothing to list.')}
        </Text>
      ) : (
        <Table
          striped
          aria-label={t('reports.compliance.evidenceOf', 'Evidence: {{check}}', { check: text.title })}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('reports.columns.evidence', 'Evidence')}</Table.Th>
              <Table.Th scope="col">{t('reports.columns.detail', 'Detail')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {check.evidence.map((item) => (
              <Table.Tr key={`${item.name}-${item.note}`}>
                <Table.Th scope="row" fw={400}>
                  {item.name}
                </Table.Th>
                <Table.Td>
                  {item.at ? `${notes[item.note]}: ${format.dateTime(item.at)}` : notes[item.note]}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {check.evidenceTotal > check.evidence.length ? (
        <Text size="xs" c="dimmed" mt="xs">
          {t('reports.more', '… and {{count, number}} more', {
            count: check.evidenceTotal - check.evidence.length,
          })}
        </Text>
      ) : null}
      {check.status === 'pass' ? null : (
        <Alert
          variant="light"
          color={STATUS_COLORS[check.status]}
          mt="sm"
          title={t('reports.compliance.remediation', 'What to do')}
        >
          {text.remediation}
        </Alert>
      )}
    </Card>
  );
}

/**
 * `/reports/security-compliance` (issue 12): checks of the tenant's configuration — two-factor authentication
 * and recent sign-ins of the administrators, threat intelligence, blocked security categories, stale devices
 * and device posture — each passed, warned or failed with its evidence and what to do.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const format = useReportFormat();
  const report = useComplianceReport(tenant);
  const names = statusNames(t);

  return (
    <ReportPage
      kind="security-compliance"
      title={t('reports.compliance.title', 'Security compliance')}
      description={t(
        'reports.compliance.description',
        'Checks of how this tenant is set up, each with the evidence it rests on and what to do when it fails.',
      )}
    >
      <ReportBody query={report} showPeriod={false}>
        {(data) => (
          <Stack gap="md">
            <KpiGrid
              label={t('reports.sections.summary', 'Summary')}
              items={(['pass', 'warn', 'fail'] as const).map((status) => ({
                key: status,
                label: names[status],
                value: format.count(data.summary[status]),
              }))}
            />
            {data.checks.map((check) => (
              <CheckCard key={check.id} check={check} format={format} />
            ))}
          </Stack>
        )}
      </ReportBody>
    </ReportPage>
  );
}

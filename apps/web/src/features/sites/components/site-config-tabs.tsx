import { Alert, Badge, Button, Group, Paper, Stack, Tabs, Text, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { SiteConfigView } from '@palisade/contracts';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan } from '../../../lib/auth';
import { serverFieldErrors } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { isSiteGatewayMissing, useSiteConfig } from '../api/get-site-config';
import { useSaveSiteConfig } from '../api/put-site-config';
import {
  checkSiteForm,
  errorsPerTab,
  firstErrorField,
  isFormField,
  type SiteFormValues,
  type SiteTab,
  tabOfField,
  toFormValues,
} from '../utils/site-form';
import { EnforcementState } from './enforcement-state';
import { LanTable } from './lan-table';
import { PortForwardTable } from './port-forward-table';
import { TrafficFlowTable } from './traffic-flow-table';
import { VlanTable } from './vlan-table';
import { WanFields } from './wan-fields';

/** The copy screen of a site gateway's configuration (`/device/:id/copy`). */
export const siteConfigCopyPath = (gatewayId: string) => `/device/${encodeURIComponent(gatewayId)}/copy`;

/** The section around the configuration: a bordered panel with an h2 that names it (a landmark region). */
function Section({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Paper component="section" withBorder p="md" radius="sm" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" mb="sm" gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('sites.title', 'Site configuration')}
        </Title>
        {actions}
      </Group>
      {children}
    </Paper>
  );
}

/** A tab's name with the number of its problems beside it (read out as "2 problems"). */
function TabLabel({ label, problems }: { label: string; problems: number }) {
  const { t } = useTranslation();
  if (problems === 0) return <>{label}</>;
  return (
    <Group gap={6} wrap="nowrap" component="span">
      <span>{label}</span>
      <Badge color="red" size="sm" circle aria-hidden>
        {problems}
      </Badge>
      <VisuallyHidden>
        {t('sites.tabs.problems', '({{count, number}} problems)', { count: problems })}
      </VisuallyHidden>
    </Group>
  );
}

/** Props of {@link SiteConfigEditor}. */
interface SiteConfigEditorProps {
  tenant: string;
  view: SiteConfigView;
  isReadOnly: boolean;
}

/**
 * The form of the whole configuration in five tabs, one Save for all of it. The contract's `SiteConfigForm`
 * checks it before anything is sent; its problems, and the server's 400 details alike, show at their row and
 * field, translated with their values, and the first of them is brought into view (its tab opened, its input
 * focused). The form starts from the configuration as loaded and keeps the administrator's edits while the
 * view around it refreshes.
 */
function SiteConfigEditor({ tenant, view, isReadOnly }: SiteConfigEditorProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<SiteTab>('lans');
  const [focusField, setFocusField] = useState<string | null>(null);
  const [isSummaryShown, setSummaryShown] = useState(false);
  const form = useForm<SiteFormValues>({ mode: 'controlled', initialValues: toFormValues(view) });

  useEffect(() => {
    if (focusField === null) return;
    setFocusField(null);
    form.getInputNode(focusField)?.focus();
  }, [focusField, form]);

  const showErrors = (errors: Record<string, string>) => {
    form.setErrors(errors);
    setSummaryShown(true);
    const first = firstErrorField(errors);
    if (first === null) return;
    setTab(tabOfField(first));
    setFocusField(first);
  };

  const save = useSaveSiteConfig(tenant, {
    onSuccess: (saved) => {
      const values = toFormValues(saved);
      form.setInitialValues(values);
      form.setValues(values);
      form.resetDirty(values);
      setSummaryShown(false);
      showSuccess(
        t('sites.saved', 'Configuration of “{{name}}” saved. The gateway receives it with its next bundle.', {
          name: saved.name,
        }),
      );
    },
    onError: (error) => {
      // Details on the configuration's fields go there; any other detail (the gateway itself) is toasted.
      const fieldErrors = Object.fromEntries(
        Object.entries(serverFieldErrors(error, t)).filter(([field]) => isFormField(field)),
      );
      if (Object.keys(fieldErrors).length > 0) showErrors(fieldErrors);
      else {
        showMutationError(t, error, {
          title: t('sites.saveFailed', 'The configuration was not saved'),
          fieldsOnForm: true,
        });
      }
    },
  });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isReadOnly || save.isPending) return;
    const check = checkSiteForm(form.getValues(), t);
    if (check.errors) {
      showErrors(check.errors);
      return;
    }
    form.clearErrors();
    setSummaryShown(false);
    save.mutate({ gatewayId: view.gatewayId, config: check.config });
  };

  const perTab = errorsPerTab(form.errors);
  const errorCount = Object.keys(form.errors).length;
  const tabs: { value: SiteTab; label: string; panel: ReactNode }[] = [
    {
      value: 'lans',
      label: t('sites.tabs.lans', 'LAN'),
      panel: <LanTable form={form} isReadOnly={isReadOnly} />,
    },
    {
      value: 'vlans',
      label: t('sites.tabs.vlans', 'VLANs'),
      panel: <VlanTable form={form} isReadOnly={isReadOnly} />,
    },
    {
      value: 'wan',
      label: t('sites.tabs.wan', 'WAN'),
      panel: <WanFields form={form} isReadOnly={isReadOnly} />,
    },
    {
      value: 'portForwards',
      label: t('sites.tabs.portForwards', 'Port forwards'),
      panel: <PortForwardTable form={form} isReadOnly={isReadOnly} />,
    },
    {
      value: 'trafficFlows',
      label: t('sites.tabs.trafficFlows', 'Traffic flows'),
      panel: <TrafficFlowTable form={form} isReadOnly={isReadOnly} />,
    },
  ];

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={t('sites.formLabel', 'Site configuration')}>
      <Stack gap="md">
        <Tabs value={tab} onChange={(value) => value && setTab(value as SiteTab)} keepMounted>
          <Tabs.List>
            {tabs.map((entry) => (
              <Tabs.Tab key={entry.value} value={entry.value}>
                <TabLabel label={entry.label} problems={perTab[entry.value]} />
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((entry) => (
            <Tabs.Panel key={entry.value} value={entry.value} pt="md">
              {entry.panel}
            </Tabs.Panel>
          ))}
        </Tabs>
        {isSummaryShown && errorCount > 0 ? (
          <Alert color="red" variant="light" role="alert">
            {t(
              'sites.problems',
              'The configuration was not saved: {{count, number}} fields need attention. They are marked in red, their tabs show how many.',
              { count: errorCount },
            )}
          </Alert>
        ) : null}
        {isReadOnly ? null : (
          <Group gap="sm" justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                form.reset();
                setSummaryShown(false);
              }}
              disabled={!form.isDirty() || save.isPending}
            >
              {t('sites.discard', 'Discard changes')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('sites.save', 'Save configuration')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** Props of {@link SiteConfigTabs}. */
export interface SiteConfigTabsProps {
  tenant: string;
  /** The site gateway (its device id is its gateway id). */
  gatewayId: string;
}

/**
 * A site gateway's configuration (issue 11), for its device page: whether the gateway enforces the saved
 * configuration, then its LANs, VLANs, WAN, port forwards and traffic flows in tabs, editable and saved together
 * by a role that may update gateways (read-only otherwise, and for a retired gateway), with a way to copy it to
 * another site gateway.
 */
export function SiteConfigTabs({ tenant, gatewayId }: SiteConfigTabsProps) {
  const { t } = useTranslation();
  const canView = useCan('gateways:view');
  const canUpdate = useCan('gateways:update');
  const query = useSiteConfig(tenant, gatewayId, canView);

  if (!canView) {
    return (
      <Section>
        <Text size="sm" c="dimmed">
          {t('sites.notAllowed', 'Your role cannot see the configuration of site gateways.')}
        </Text>
      </Section>
    );
  }
  if (query.isPending) {
    return (
      <Section>
        <LoadingState label={t('sites.loading', 'Loading the site configuration…')} />
      </Section>
    );
  }
  if (query.isError && !query.data) {
    return (
      <Section>
        {isSiteGatewayMissing(query.error) ? (
          <Text size="sm" c="dimmed">
            {t(
              'sites.missing',
              'This device has no site configuration: it is not a site gateway of this tenant.',
            )}
          </Text>
        ) : (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        )}
      </Section>
    );
  }
  const view = query.data;
  const isRetired = view.status === 'retired';
  return (
    <Section
      actions={
        canUpdate ? (
          <Button component={Link} to={siteConfigCopyPath(view.gatewayId)} variant="default" size="xs">
            {t('sites.copyAction', 'Copy to another gateway')}
          </Button>
        ) : null
      }
    >
      <Stack gap="md">
        <EnforcementState view={view} />
        {isRetired ? (
          <Alert color="gray" variant="light">
            {t('sites.retired', 'A retired gateway takes no configuration. It is shown here for the record.')}
          </Alert>
        ) : null}
        <SiteConfigEditor
          key={view.gatewayId}
          tenant={tenant}
          view={view}
          isReadOnly={!canUpdate || isRetired}
        />
      </Stack>
    </Section>
  );
}

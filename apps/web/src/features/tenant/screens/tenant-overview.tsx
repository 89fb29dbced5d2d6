import { Badge, Button, Card, SimpleGrid, Text } from '@mantine/core';
import { buildPath, type Tenant } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { usePaletteLabels, useThemeLabels } from '../../../components/ui/appearance-pickers';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan } from '../../../lib/auth';
import { useFormatters } from '../../../lib/format-time';
import { tenantQuery } from '../api/tenant-queries';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" fw={500} m={0}>
        {children}
      </Text>
    </div>
  );
}

function TenantCard({ tenant }: { tenant: Tenant }) {
  const { t } = useTranslation();
  const themes = useThemeLabels();
  const palettes = usePaletteLabels();
  const kinds: Record<Tenant['kind'], string> = {
    platform: t('tenant.kinds.platform', 'Platform'),
    partner: t('tenant.kinds.partner', 'Partner'),
    customer: t('tenant.kinds.customer', 'Customer'),
  };
  const created = useFormatters().date(tenant.createdAt, { style: 'long' });
  return (
    <Card withBorder radius="md" padding="lg">
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="lg" m={0}>
        <Field label={t('tenant.fields.name', 'Name')}>
          <Text span ff="monospace">
            {tenant.name}
          </Text>
        </Field>
        <Field label={t('tenant.fields.displayName', 'Display name')}>{tenant.displayName}</Field>
        <Field label={t('tenant.fields.kind', 'Kind')}>
          <Badge variant="light">{kinds[tenant.kind]}</Badge>
        </Field>
        <Field label={t('tenant.fields.parent', 'Partner')}>
          {tenant.parent ?? t('tenant.noParent', 'None')}
        </Field>
        <Field label={t('tenant.fields.theme', 'Default theme')}>
          {t('tenant.themeAndPalette', '{{theme}}, {{palette}} palette', {
            theme: themes[tenant.themevalue],
            palette: palettes[tenant.palette],
          })}
        </Field>
        <Field label={t('tenant.fields.created', 'Created')}>
          <time dateTime={tenant.createdAt}>{created}</time>
        </Field>
      </SimpleGrid>
    </Card>
  );
}

/** `/tenant/:id` (id = tenant name): the tenant at a glance, read-only. */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const canEdit = useCan('tenant:update');
  const query = useQuery(tenantQuery(id));
  return (
    <>
      <PageHeader
        title={query.data?.displayName ?? t('tenant.overview.title', 'Tenant')}
        description={t('tenant.overview.description', 'Workspace details')}
        actions={
          canEdit ? (
            <Button component={Link} to={buildPath('/tenant/:id/settings', id)}>
              {t('tenant.overview.editSettings', 'Edit settings')}
            </Button>
          ) : null
        }
      />
      {query.isPending ? (
        <LoadingState label={t('tenant.loading', 'Loading the tenant…')} />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <TenantCard tenant={query.data} />
      )}
    </>
  );
}

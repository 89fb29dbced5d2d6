import { Anchor, Paper, Table, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { formatNumber } from '../../../lib/i18n';
import { useAllLocalControls } from '../api/local-controls';

/** The address of a site gateway's controls on the same screen. */
export const gatewaySearch = (gatewayId: string) => `?gateway=${encodeURIComponent(gatewayId)}`;

/** Props of {@link ControlsOverview}. */
export interface ControlsOverviewProps {
  tenant: string;
  /** The gateway shown above, marked in the table. */
  currentId: string;
}

/**
 * Which site gateway has what: a table of every site gateway of the tenant with how many local policies, web
 * categories, countries and feeds it enforces, each gateway a link to its controls on this screen.
 */
export function ControlsOverview({ tenant, currentId }: ControlsOverviewProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const headingId = useId();
  const query = useAllLocalControls(tenant);
  const count = (n: number) => formatNumber(n, locale);

  const renderBody = () => {
    if (query.isPending) {
      return (
        <LoadingState label={t('localControls.overview.loading', 'Loading the site gateways’ controls…')} />
      );
    }
    if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
    const { items } = query.data;
    if (items.length === 0) {
      return (
        <Text size="sm" c="dimmed">
          {t('localControls.overview.empty', 'No site gateway has local controls yet.')}
        </Text>
      );
    }
    return (
      <Table.ScrollContainer minWidth={560}>
        <Table striped highlightOnHover>
          <Table.Caption>
            {t('localControls.overview.caption', 'Local controls of every site gateway, counted per list.')}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('localControls.overview.gateway', 'Site gateway')}</Table.Th>
              <Table.Th scope="col">{t('localControls.overview.policies', 'Local policies')}</Table.Th>
              <Table.Th scope="col">{t('localControls.overview.categories', 'Web categories')}</Table.Th>
              <Table.Th scope="col">{t('localControls.overview.countries', 'Countries')}</Table.Th>
              <Table.Th scope="col">{t('localControls.overview.feeds', 'Threat feeds')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => {
              const isCurrent = item.gatewayId === currentId;
              return (
                <Table.Tr key={item.gatewayId}>
                  <Table.Th scope="row" fw={isCurrent ? 700 : 500}>
                    <Anchor
                      component={Link}
                      to={gatewaySearch(item.gatewayId)}
                      aria-current={isCurrent ? 'true' : undefined}
                      size="sm"
                    >
                      {item.name}
                    </Anchor>
                  </Table.Th>
                  <Table.Td>{count(item.policyIds.length)}</Table.Td>
                  <Table.Td>{count(item.categories.length)}</Table.Td>
                  <Table.Td>{count(item.countries.length)}</Table.Td>
                  <Table.Td>{count(item.feeds.length)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  };

  return (
    <Paper component="section" withBorder p="md" radius="sm" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="sm">
        {t('localControls.overview.title', 'All site gateways')}
      </Title>
      {renderBody()}
    </Paper>
  );
}

import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { KioskContext } from '../../../components/ui/kiosk';
import { EmptyState } from '../../../components/ui/query-state';
import { canWorkIn, useSession, WorkingTenantScope } from '../../../lib/auth';
import { tenantDisplayName } from '../../../lib/tenant-names';
import classes from './kiosk-frame.module.css';

/** Props of {@link KioskFrame}. */
export interface KioskFrameProps {
  /** The view's title: the kind of embedded dashboard, and what it shows when that is another dashboard. */
  title: string;
  /** A line under the title. */
  description?: string;
  /** The tenant the path names: the view shows its data, when the session may work in it. */
  tenant?: string;
  children: ReactNode;
}

/**
 * The page of an embedded dashboard (`/embed/…`, spec §2): no sidebar, header or navigation — full width, the
 * view's title and the dashboard, in the user's theme and language as everywhere. The screens inside step their
 * headings down under the title and leave out their own actions. A tenant named in the path becomes the working
 * tenant of the view only (the console in other tabs keeps its own); one the session cannot work in is refused.
 */
export function KioskFrame({ title, description, tenant, children }: KioskFrameProps) {
  const { t } = useTranslation();
  const { session } = useSession();
  const renderBody = () => {
    if (tenant === undefined) return children;
    if (!canWorkIn(session, tenant)) {
      return (
        <EmptyState
          message={t(
            'embed.frame.otherTenant',
            'This dashboard shows the tenant “{{tenant}}”, which this session cannot open.',
            { tenant },
          )}
        />
      );
    }
    return <WorkingTenantScope tenant={tenant}>{children}</WorkingTenantScope>;
  };
  return (
    <KioskContext.Provider value={true}>
      <main id="main-content" tabIndex={-1} className={classes.kiosk} data-kiosk="">
        <Stack gap={4} className={classes.header}>
          <Title order={1} size="h2">
            {title}
          </Title>
          {tenant !== undefined ? (
            <Text size="sm" c="dimmed">
              {t('embed.frame.tenant', 'Tenant: {{tenant}}', { tenant: tenantDisplayName(session, tenant) })}
            </Text>
          ) : null}
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </Stack>
        {renderBody()}
      </main>
    </KioskContext.Provider>
  );
}

import type { ServerModule } from './lib/server-module';
import { adminsRoutes } from './modules/admins/admins.routes';
import { blockPageRoutes } from './modules/block-page/block-page.routes';
import { startApprovalExpiry } from './modules/block-page/block-page.service';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { embedLinksRoutes } from './modules/embed-links/embed-links.routes';
import { startKeyExpiry } from './modules/enrolment/devices.service';
import { enrolmentRoutes } from './modules/enrolment/enrolment.routes';
import { eventsRoutes } from './modules/events/events.routes';
import { startEventPurge } from './modules/events/events.service';
import { featuresRoutes } from './modules/features/features.routes';
import { gatewaysRoutes } from './modules/gateways/gateways.routes';
import { createBundleCache, startSiteMetricsPurge } from './modules/gateways/gateways.service';
import { groupsRoutes } from './modules/groups/groups.routes';
import { healthRoutes } from './modules/health/health.routes';
import { policiesRoutes } from './modules/policies/policies.routes';
import { policyConfigurationGuards } from './modules/policies/policies.service';
import { createPolicyCache } from './modules/policy-core/policy-core.service';
import { setFeedPrivateNetworks } from './modules/policy-objects/feeds';
import { startFeedRefresh } from './modules/policy-objects/feeds.service';
import { policyObjectsRoutes } from './modules/policy-objects/policy-objects.routes';
import { policyTemplatesRoutes } from './modules/policy-templates/policy-templates.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { startReportSchedules } from './modules/reports/reports.service';
import { rolesRoutes } from './modules/roles/roles.routes';
import { sessionRoutes } from './modules/session/session.routes';
import { createPaymentProvider } from './modules/subscriptions/payments.provider';
import { subscriptionsRoutes } from './modules/subscriptions/subscriptions.routes';
import { startBilling } from './modules/subscriptions/subscriptions.service';
import { telemetryRoutes } from './modules/telemetry/telemetry.routes';
import { startTelemetry } from './modules/telemetry/telemetry.service';
import { produceThrough } from './modules/telemetry/telemetry.stream';
import { startTenantPurge } from './modules/tenants/tenant-deletion.service';
import { tenantsRoutes } from './modules/tenants/tenants.routes';
import { tokensRoutes } from './modules/tokens/tokens.routes';
import { usersRoutes } from './modules/users/users.routes';
import { refreshConnectionStatus } from './modules/users/users.service';
import { systemRoutes, webRoutes } from './modules/web/web.routes';

/**
 * Every server module, in registration order: app.ts registers each one's API routes under `/api`, then the root
 * routes, then starts the background work. A new area adds its row here (docs/adding-an-area.md).
 */
export const MODULES: readonly ServerModule[] = [
  { name: 'session', api: (api, deps) => sessionRoutes(api, deps) },
  { name: 'users', api: (api, { database }) => usersRoutes(api, database) },
  { name: 'groups', api: (api, { database }) => groupsRoutes(api, database) },
  {
    name: 'enrolment',
    api: (api, deps) => enrolmentRoutes(api, deps),
    // Expires device keys whose lifetime ended, every minute.
    start: ({ database, log }) => startKeyExpiry(database, log),
  },
  {
    name: 'policies',
    api: (api, { database, changes }) => {
      // This instance's compiled policies: other instances on the database have theirs.
      const cache = createPolicyCache(database, changes);
      api.addHook('onClose', async () => cache.close());
      policiesRoutes(api, database, cache);
    },
  },
  {
    name: 'policy-objects',
    api: (api, { database }) => policyObjectsRoutes(api, database),
    // Refreshes URL threat-intel feeds whose interval has passed, checked every minute.
    start: ({ database, config, log }) => {
      setFeedPrivateNetworks(config.feedAllowPrivateNetworks);
      return startFeedRefresh(database, log);
    },
  },
  {
    name: 'gateways',
    api: (api, { database, changes, config }) => {
      const policies = createPolicyCache(database, changes);
      api.addHook('onClose', async () => policies.close());
      gatewaysRoutes(api, {
        database,
        changes,
        policies,
        bundles: createBundleCache(),
        publicUrl: config.publicUrl,
        afterHandshakes: refreshConnectionStatus,
      });
    },
    // Deletes the sites' per-minute metrics past their retention, hourly.
    start: ({ database, log }) => startSiteMetricsPurge(database, log),
  },
  {
    name: 'block-page',
    api: (api, { database, changes, mailer }) => {
      const policies = createPolicyCache(database, changes);
      api.addHook('onClose', async () => policies.close());
      blockPageRoutes(api, {
        database,
        mailer,
        policies,
        gateways: { database, changes, policies, bundles: createBundleCache() },
      });
    },
    // Expires approved access requests whose time is up, every minute.
    start: ({ database, log }) => startApprovalExpiry(database, log),
  },
  { name: 'roles', api: (api, { database }) => rolesRoutes(api, database) },
  { name: 'admins', api: (api, deps) => adminsRoutes(api, deps) },
  {
    name: 'tenants',
    api: (api, deps) => tenantsRoutes(api, deps),
    // Purges tenants whose deletion grace period is over, hourly.
    start: ({ database, log }) => startTenantPurge(database, log),
  },
  { name: 'policy-templates', api: (api, { database }) => policyTemplatesRoutes(api, database) },
  {
    name: 'features',
    // Policy groups and the rules' web categories are the policies module's: it says when they are still used,
    // so their configuration flags are not turned off under them.
    api: (api, deps) => featuresRoutes(api, { ...deps, configurationGuards: policyConfigurationGuards }),
  },
  { name: 'tokens', api: (api, deps) => tokensRoutes(api, deps) },
  { name: 'embed-links', api: (api, deps) => embedLinksRoutes(api, deps) },
  { name: 'dashboard', api: (api, { database }) => dashboardRoutes(api, database) },
  {
    name: 'events',
    api: (api, { database }) => eventsRoutes(api, database),
    // Deletes admin events past each tenant's retention, hourly.
    start: ({ database, log }) => startEventPurge(database, log),
  },
  {
    name: 'telemetry',
    api: (api, { database, changes, redis }) => {
      // With Redis, gateways' batches go through its stream (telemetry.stream.ts).
      if (redis) produceThrough(database, redis);
      telemetryRoutes(api, database, changes);
    },
    // Makes the event store's next days and drops those past retention, hourly; writes the stream's batches.
    start: ({ database, config, log }) =>
      startTelemetry(database, { url: config.redisUrl, keyPrefix: config.redisPrefix }, log),
  },
  {
    name: 'reports',
    api: (api, { database, mailer, config }) => reportsRoutes(api, { database, mailer, config }),
    // Mails the weekly reports that are due, checked every minute.
    start: ({ database, mailer, config, log }) => startReportSchedules({ database, mailer, config }, log),
  },
  {
    name: 'subscriptions',
    api: (api, { database, config }) =>
      subscriptionsRoutes(api, { database, provider: createPaymentProvider(config) }),
    // Renews, retries failed payments, ends trials and records the day's usage, every quarter hour.
    start: ({ database, config, log }) =>
      startBilling({ database, provider: createPaymentProvider(config) }, log),
  },
  {
    name: 'web',
    api: (api, { database, config }) => systemRoutes(api, database, config),
    root: (app, { config }) => webRoutes(app, config),
  },
  { name: 'health', api: (api, deps) => healthRoutes(api, deps) },
];

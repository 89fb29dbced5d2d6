/**
 * Which module owns each table that `migrations/*.sql` creates. The owner alone writes the table (insert, update,
 * delete) and is where other code gets its rows: another module calls the owner's service. An owner is a module
 * folder (`modules/users`) or, for the few tables shared infrastructure keeps, a lib file (`lib/mailer`).
 * owners.test.ts reads every repository and lib file and holds the code to this list.
 */
export const TABLE_OWNERS: Record<string, string> = {
  tenants: 'modules/tenants',
  users: 'modules/users',
  groups: 'modules/groups',
  user_groups: 'modules/groups',
  sessions: 'modules/session',
  sign_in_throttle: 'modules/session',
  signups: 'modules/session',
  transactions: 'modules/session',
  api_tokens: 'modules/tokens',
  embed_links: 'modules/embed-links',
  custom_roles: 'modules/roles',
  admin_events: 'modules/events',
  enrolment_tokens: 'modules/enrolment',
  devices: 'modules/enrolment',
  device_settings: 'modules/enrolment',
  device_sessions: 'modules/enrolment',
  gateways: 'modules/gateways',
  gateway_bundles: 'modules/gateways',
  private_services: 'modules/gateways',
  site_metrics: 'modules/gateways',
  local_controls: 'modules/gateways',
  ztna_rules: 'modules/gateways',
  site_configs: 'modules/gateways',
  internal_devices: 'modules/gateways',
  device_mesh: 'modules/gateways',
  telemetry_events: 'modules/telemetry',
  telemetry_minute: 'modules/telemetry',
  telemetry_hour_top: 'modules/telemetry',
  telemetry_day_top: 'modules/telemetry',
  telemetry_day_sessions: 'modules/telemetry',
  report_schedules: 'modules/reports',
  report_recipients: 'modules/reports',
  report_mails: 'modules/reports',
  access_requests: 'modules/block-page',
  tenant_features: 'modules/features',
  partner_logos: 'modules/tenants',
  policy_templates: 'modules/policy-templates',
  policy_template_links: 'modules/policy-templates',
  subscriptions: 'modules/subscriptions',
  payment_methods: 'modules/subscriptions',
  subscription_events: 'modules/subscriptions',
  subscription_usage: 'modules/subscriptions',
  payments: 'modules/subscriptions',
  payment_webhook_events: 'modules/subscriptions',
  subscription_charges: 'modules/subscriptions',
  policies: 'modules/policies',
  policy_rules: 'modules/policies',
  policy_groups: 'modules/policies',
  policy_group_policies: 'modules/policies',
  policy_group_users: 'modules/policies',
  policy_group_groups: 'modules/policies',
  policy_group_devices: 'modules/policies',
  policy_tests: 'modules/policies',
  policy_versions: 'modules/policy-core',
  policy_locations: 'modules/policy-objects',
  policy_apps: 'modules/policy-objects',
  policy_blocked_apps: 'modules/policy-objects',
  policy_categories: 'modules/policy-objects',
  policy_category_actions: 'modules/policy-objects',
  policy_feeds: 'modules/policy-objects',
  policy_geo_blocked: 'modules/policy-objects',
  mail_outbox: 'lib/mailer',
  import_jobs: 'lib/import-jobs',
  scheduled_runs: 'lib/scheduled-runs',
  schema_migrations: 'db/migrate',
};

/** A table another module reads or writes directly, and why; `write` includes reading. */
export interface SharedAccess {
  by: string;
  table: string;
  access: 'read' | 'write';
  why: string;
}

/**
 * Where code other than the owner touches a table today. Each is a debt, not a pattern: a new area calls the
 * owner's service instead. The test fails on an access missing here and on an entry that no longer happens, so
 * the list only ever shrinks.
 */
export const SHARED_ACCESS: SharedAccess[] = [
  {
    by: 'modules/users',
    table: 'devices',
    access: 'read',
    why: "a user's connection status comes from their devices' last tunnel handshakes",
  },
  {
    by: 'modules/dashboard',
    table: 'devices',
    access: 'read',
    why: '"connected right now" counts the users with a device whose tunnel handshake is recent',
  },
  {
    by: 'modules/gateways',
    table: 'devices',
    access: 'write',
    why: "devices with a WireGuard key are every gateway's peers; a tunnel handshake moves a device's last-seen time",
  },
  {
    by: 'modules/enrolment',
    table: 'gateways',
    access: 'read',
    why: 'site gateways are listed in the device inventory beside endpoints',
  },
  {
    by: 'modules/telemetry',
    table: 'gateways',
    access: 'read',
    why: 'an event names the gateway that saw it',
  },
  { by: 'modules/telemetry', table: 'users', access: 'read', why: 'an event names its user' },
  { by: 'modules/telemetry', table: 'devices', access: 'read', why: 'an event names its device' },

  {
    by: 'modules/gateways',
    table: 'users',
    access: 'read',
    why: 'the users behind gateway tunnels (cgwsusers, virtual sessions) and private services',
  },
  {
    by: 'modules/gateways',
    table: 'groups',
    access: 'read',
    why: 'the groups private services and ZTNA rules name',
  },
  {
    by: 'modules/gateways',
    table: 'user_groups',
    access: 'read',
    why: "a ZTNA rule naming a group guards its members' devices",
  },
  // Administrators and end users are rows of one table; each module manages its kind of account.
  {
    by: 'modules/admins',
    table: 'users',
    access: 'write',
    why: 'administrators are users rows (usertype 1)',
  },
  {
    by: 'modules/admins',
    table: 'sessions',
    access: 'write',
    why: 'suspending an administrator ends their sessions',
  },
  {
    by: 'modules/roles',
    table: 'users',
    access: 'write',
    why: 'a role assignment is the role column of users',
  },
  { by: 'modules/session', table: 'users', access: 'write', why: 'sign-in, sign-up and account settings' },
  {
    by: 'modules/session',
    table: 'tenants',
    access: 'write',
    why: 'a confirmed sign-up creates its workspace',
  },
  {
    by: 'modules/events',
    table: 'tenants',
    access: 'write',
    why: 'the event retention is a column of tenants',
  },
  // Group membership is changed from the user (users, bulk changes), the group and enrolment.
  {
    by: 'modules/users',
    table: 'user_groups',
    access: 'write',
    why: "a user's groups are set with the user",
  },
  {
    by: 'modules/enrolment',
    table: 'user_groups',
    access: 'write',
    why: "an enrolment link adds to its groups; the device list filters by, and a device's policies follow, its owner's groups",
  },
  // Joins for names and counts shown beside the module's own rows.
  { by: 'modules/users', table: 'groups', access: 'read', why: 'group names in the user list and forms' },
  { by: 'modules/groups', table: 'users', access: 'read', why: 'members are end users' },
  { by: 'modules/groups', table: 'policy_groups', access: 'read', why: 'where a group is used' },
  { by: 'modules/groups', table: 'policy_group_groups', access: 'read', why: 'where a group is used' },
  { by: 'modules/enrolment', table: 'users', access: 'read', why: 'devices belong to end users' },
  { by: 'modules/enrolment', table: 'groups', access: 'read', why: 'the groups an enrolment link adds to' },
  {
    by: 'modules/enrolment',
    table: 'tenants',
    access: 'read',
    why: 'a link names its tenant before sign-in',
  },
  { by: 'modules/enrolment', table: 'policy_groups', access: 'read', why: 'the policy groups of a device' },
  {
    by: 'modules/enrolment',
    table: 'policy_group_devices',
    access: 'read',
    why: 'the policy groups of a device',
  },
  { by: 'modules/policies', table: 'users', access: 'read', why: 'policy groups and tests name end users' },
  { by: 'modules/policies', table: 'groups', access: 'read', why: 'policy groups name user groups' },
  { by: 'modules/policies', table: 'user_groups', access: 'read', why: 'who a policy applies to' },
  { by: 'modules/policies', table: 'devices', access: 'read', why: 'policy groups name devices' },
  { by: 'modules/tokens', table: 'users', access: 'read', why: "a token acts with its owner's rights" },
  { by: 'modules/tokens', table: 'tenants', access: 'read', why: "a token's tenant, before any is known" },
  {
    by: 'modules/gateways',
    table: 'tenants',
    access: 'read',
    why: "a suspended tenant's gateways are told so at once, from the long-poll's own look-up",
  },
  { by: 'modules/embed-links', table: 'users', access: 'read', why: "a link acts with its creator's rights" },
  {
    by: 'modules/embed-links',
    table: 'tenants',
    access: 'read',
    why: "a link's tenant and its creator's, before any is known",
  },
  {
    by: 'modules/tenants',
    table: 'users',
    access: 'write',
    why: "the tenant's primary user; a purge removes a deleted tenant's users before its custom roles (RESTRICT)",
  },
  {
    by: 'modules/tenants',
    table: 'devices',
    access: 'read',
    why: "the partner console's counts per tenant, in one statement",
  },
  {
    by: 'modules/tenants',
    table: 'gateways',
    access: 'read',
    why: "the partner console's counts per tenant, in one statement",
  },
  { by: 'modules/dashboard', table: 'users', access: 'read', why: 'the tile counts, in one statement' },
  { by: 'modules/dashboard', table: 'groups', access: 'read', why: 'the tile counts, in one statement' },
  // Every module records its writes in the log through lib/audit (in its transaction); events reads and purges.
  {
    by: 'modules/subscriptions',
    table: 'users',
    access: 'read',
    why: "seats are end users, counted in the seat check the users module calls (its service would be a cycle); the invoice language is the owner's",
  },
  {
    by: 'modules/subscriptions',
    table: 'devices',
    access: 'read',
    why: "a subscription's usage counts devices, with the end users, in one statement",
  },
  {
    by: 'modules/subscriptions',
    table: 'tenants',
    access: 'read',
    why: "the partner rollup lists the partner's tenants with their subscription; an invoice names its tenant",
  },
  { by: 'lib/audit', table: 'admin_events', access: 'write', why: 'the one writer of the admin event log' },
];

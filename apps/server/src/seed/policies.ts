import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { groups, userGroups } from '../db/schema';
import type { Ctx } from '../lib/context';
import { updateConfigurations } from '../modules/features/features.service';
import * as policies from '../modules/policies/policies.service';
import * as policyGroups from '../modules/policies/policy-groups.service';
import * as policyTests from '../modules/policies/policy-tests.service';
import { createPolicyCache } from '../modules/policy-core/policy-core.service';

/** The QoS class video calls get in the demo (classes arrive with the gateways; any id works until then). */
const REALTIME_QOS = '5e1f0c2a-9d4b-4c61-8a57-3f0e2b7d1c01';

/** The first member of a group of the tenant, by its name. */
async function memberOf(database: Database, tenantId: string, groupName: string): Promise<string | null> {
  const [row] = await database.db
    .select({ userId: userGroups.userId })
    .from(userGroups)
    .innerJoin(groups, and(eq(groups.tenantId, userGroups.tenantId), eq(groups.id, userGroups.groupId)))
    .where(and(eq(userGroups.tenantId, tenantId), eq(groups.name, groupName)))
    .limit(1);
  return row?.userId ?? null;
}

/** The ids of the tenant's groups with these names (names the tenant lacks are skipped). */
async function groupIds(database: Database, tenantId: string, names: string[]): Promise<string[]> {
  const rows = await database.db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.tenantId, tenantId), inArray(groups.name, names)));
  return rows.map((row) => row.id);
}

/**
 * A customer's demo policies, through the same services the API uses: a user policy per concern, a device
 * (route) policy, a QoS policy, policy groups for engineering and office staff (the tenant's `policyGroups`
 * configuration flag is turned on for them first: it is off by default), and policy tests pinning what must keep
 * working.
 */
export async function seedPolicies(database: Database, ctx: Ctx): Promise<void> {
  const tenantId = ctx.tenant.id;
  await updateConfigurations({ database, configurationGuards: policies.policyConfigurationGuards }, ctx, {
    policyGroups: true,
  });
  // The tests' answers are decided against the live policy; the seed needs no instance's cache for that.
  const cache = createPolicyCache(database);
  await policies.createPolicy(database, ctx, {
    type: 'other',
    name: 'Block gambling',
    description: 'Betting, casino and lottery sites are blocked for everyone.',
    enabled: true,
    rules: [rule({ name: 'Gambling sites', type: 'dmn', action: 'block', categories: ['gambling'] })],
  });
  const devTools = await policies.createPolicy(database, ctx, {
    type: 'other',
    name: 'Allow developer tools',
    description: 'Code hosting and package registries for the engineering team.',
    enabled: true,
    rules: [
      rule({
        name: 'Code hosting and registries',
        type: 'dmn',
        action: 'allow',
        url: 'github.com;gitlab.com;bitbucket.org;npmjs.com;pypi.org',
      }),
    ],
  });
  const installers = await policies.createPolicy(database, ctx, {
    type: 'other',
    name: 'Block executable downloads',
    description: 'Installers come from IT, not from the web.',
    enabled: true,
    rules: [rule({ name: 'Installers', type: 'SQUID_FILEEXT', action: 'block', url: 'exe;msi;dmg' })],
  });
  await policies.createPolicy(database, ctx, {
    type: 'route',
    name: 'Route corporate networks',
    description: 'Internal networks are reached through the headquarters gateway.',
    enabled: true,
    rules: [
      rule({
        name: 'Corporate networks',
        type: 'ROUTE',
        action: 'route',
        url: '10.0.0.0/8',
        target: 'hq-cybernode',
      }),
    ],
  });
  await policies.createPolicy(database, ctx, {
    type: 'qos',
    name: 'Video calls priority',
    description: 'Zoom and Teams calls get the real-time class.',
    enabled: true,
    rules: [
      rule({
        name: 'Video calls',
        type: 'app',
        action: 'qos',
        url: 'zoom;microsoft-teams',
        target: REALTIME_QOS,
      }),
    ],
  });

  await policyGroups.createPolicyGroup(database, ctx, {
    name: 'Engineering',
    description: 'Developer tooling for the engineering team.',
    policyIds: [devTools.policy.id],
    groupIds: await groupIds(database, tenantId, ['Engineering']),
    userIds: [],
    deviceIds: [],
  });
  await policyGroups.createPolicyGroup(database, ctx, {
    name: 'Office staff',
    description: 'Sales and finance laptops do not install software from the web.',
    policyIds: [installers.policy.id],
    groupIds: await groupIds(database, tenantId, ['Sales', 'Finance']),
    userIds: [],
    deviceIds: [],
  });

  const engineer = await memberOf(database, tenantId, 'Engineering');
  const seller = await memberOf(database, tenantId, 'Sales');
  await policyTests.createPolicyTest(database, cache, ctx, {
    name: 'Gambling is blocked',
    request: {
      ...(seller ? { userId: seller } : {}),
      destination: 'https://www.bet365.com/',
      protocol: 'tcp',
    },
    expect: 'block',
  });
  if (engineer) {
    await policyTests.createPolicyTest(database, cache, ctx, {
      name: 'Engineers reach GitHub',
      request: { userId: engineer, destination: 'https://github.com/palisade/console', protocol: 'tcp' },
      expect: 'allow',
    });
  }
  if (seller) {
    await policyTests.createPolicyTest(database, cache, ctx, {
      name: 'Sales cannot download installers',
      request: { userId: seller, destination: 'https://downloads.example.com/setup.exe', protocol: 'tcp' },
      expect: 'block',
    });
  }
}

/** A rule with the defaults the contract schema would fill in. */
function rule(
  fields: Pick<Parameters<typeof policies.createPolicy>[2]['rules'][number], 'name' | 'type' | 'action'> &
    Partial<Parameters<typeof policies.createPolicy>[2]['rules'][number]>,
) {
  return {
    url: '',
    target: '',
    ports: '',
    categories: [],
    feeds: [],
    locations: [],
    schedule: null,
    enabled: true,
    ...fields,
  };
}

import type { Role } from '@palisade/contracts';
import { eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { groups, tenants, users } from '../db/schema';
import type { Ctx } from '../lib/context';
import { describePasswordProblem, passwordProblem } from '../lib/password-policy';
import { hashPassword } from '../lib/passwords';
import { createUser } from '../modules/users/users.service';
import { seedDevices } from './devices';
import { seedGateways } from './gateways';
import { seedPolicies } from './policies';
import { seedPolicyObjects } from './policy-objects';
import { seedPolicyTemplates } from './policy-templates';
import { seedSites } from './sites';
import { seedSubscriptions } from './subscriptions';
import { seedTelemetry } from './telemetry';

const FIRST = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Elena',
  'Felix',
  'Greta',
  'Hugo',
  'Ida',
  'Jonas',
  'Kira',
  'Lukas',
  'Mia',
  'Noah',
  'Olivia',
  'Paul',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Uwe',
  'Vera',
  'Will',
  'Xenia',
  'Yusuf',
  'Zoe',
];
const LAST = [
  'Adler',
  'Becker',
  'Chen',
  'Dietrich',
  'Engel',
  'Fischer',
  'Garcia',
  'Hoffmann',
  'Ito',
  'Jansen',
  'Klein',
  'Lopez',
  'Meyer',
  'Novak',
  'Okafor',
  'Peters',
  'Richter',
  'Schmidt',
  'Tanaka',
  'Vogel',
  'Wagner',
  'Young',
  'Zimmer',
];
const GROUPS = ['Engineering', 'Sales', 'Support', 'Finance', 'Remote workers'];

interface Seeded {
  lines: string[];
}

async function addAdmin(
  database: Database,
  tenantId: string,
  account: { username: string; firstname: string; lastname: string; role: Role; usertype: number },
  passwordHash: string,
) {
  await database.db
    .insert(users)
    .values({ tenantId, ...account, email: account.username, passwordHash, isEmailVerified: true });
}

/** One customer tenant: its administrators, groups and about fifty end users, through the users service. */
async function seedCustomer(database: Database, tenant: { id: string; name: string }, passwordHash: string) {
  const admins: Array<[string, Role, string, string]> = [
    [`admin@${tenant.name}.example`, 'owner', 'Alex', 'Admin'],
    [`helpdesk@${tenant.name}.example`, 'helpdesk', 'Hanna', 'Helpdesk'],
    [`auditor@${tenant.name}.example`, 'auditor', 'Arno', 'Auditor'],
    [`netadmin@${tenant.name}.example`, 'network_admin', 'Nina', 'Network'],
  ];
  for (const [username, role, firstname, lastname] of admins) {
    await addAdmin(database, tenant.id, { username, role, firstname, lastname, usertype: 1 }, passwordHash);
  }
  const [owner] = await database.db.select().from(users).where(eq(users.username, admins[0][0]));
  const groupRows = await database.db
    .insert(groups)
    .values(GROUPS.map((name) => ({ tenantId: tenant.id, name, description: `${name} team` })))
    .returning({ id: groups.id });
  const ctx: Ctx = {
    tenant: { id: tenant.id, name: tenant.name, kind: 'customer' },
    actor: {
      id: owner.id,
      username: owner.username,
      role: 'owner',
      usertype: 1,
      tenantId: tenant.id,
      tenantName: tenant.name,
      tenantKind: 'customer',
      sessionHash: '',
    },
    ip: null,
  };
  const seedOffset = tenant.name.length;
  for (let i = 0; i < 52; i++) {
    const firstname = FIRST[(i + seedOffset) % FIRST.length];
    const lastname = LAST[(i * 7 + seedOffset) % LAST.length];
    const user = await createUser(database, ctx, {
      username: `${firstname}.${lastname}${i}@${tenant.name}.example`.toLowerCase(),
      firstname,
      lastname,
      groups: [groupRows[i % groupRows.length].id, ...(i % 4 === 0 ? [groupRows[4].id] : [])],
      isprvaccess: i % 3 !== 0,
      issiauser: i % 2 === 0,
      // No user has XDR: the demo's tenants do not (its add-on is sold once the XDR area exists).
      isxdrenabled: false,
      suci: i % 6 === 0 ? `suci-0-001-01-0000-0-0-${String(1_000_000_000 + i).padStart(10, '0')}` : null,
    });
    if (i % 4 !== 3) {
      await database.db
        .update(users)
        .set({ connstatus: i % 2 === 0 ? 'connected' : 'disconnected' })
        .where(eq(users.id, user.id));
    }
  }
  await seedPolicyObjects(database, ctx);
  await seedPolicies(database, ctx);
  await seedDevices(database, ctx);
  await seedGateways(database, ctx);
  await seedSites(database, ctx);
  await seedTelemetry(database, ctx);
}

/**
 * First start: the platform administrator from ADMIN_EMAIL/ADMIN_PASSWORD, and (embedded default, or --demo)
 * the demo: platform tenant, partner northwind and its customers acme and globex.
 */
export async function seed(database: Database, config: Config): Promise<Seeded> {
  const lines: string[] = [];
  const { db } = database;
  const [existingAdmin] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.role, 'platform_admin'))
    .limit(1);
  const newAdmin = !existingAdmin && config.adminEmail && config.adminPassword ? config : null;
  if (newAdmin?.adminEmail && newAdmin.adminPassword) {
    // The platform administrator's password meets the policy like any other chosen password; checked before
    // anything is written, so a refused start leaves the database as it was.
    const problem =
      newAdmin.adminPassword.length < 10
        ? 'validation.passwordTooShort'
        : passwordProblem(newAdmin.adminPassword, { email: newAdmin.adminEmail, tenantName: 'platform' });
    if (problem) throw new Error(`ADMIN_PASSWORD is refused: ${describePasswordProblem(problem)}.`);
  }
  let [platform] = await db.select().from(tenants).where(eq(tenants.name, 'platform'));
  if (!platform && (config.seedDemo || config.adminEmail)) {
    [platform] = await db
      .insert(tenants)
      .values({
        name: 'platform',
        displayName: 'Palisade Platform',
        kind: 'platform',
        themevalue: 'light',
        palette: 'classic',
      })
      .returning();
  }
  if (platform && newAdmin?.adminEmail && newAdmin.adminPassword) {
    await addAdmin(
      database,
      platform.id,
      {
        username: newAdmin.adminEmail.toLowerCase(),
        firstname: 'Platform',
        lastname: 'Administrator',
        role: 'platform_admin',
        usertype: 1,
      },
      await hashPassword(newAdmin.adminPassword),
    );
    lines.push(`  Platform administrator created: ${newAdmin.adminEmail}`);
  }
  if (!config.seedDemo) return { lines };
  const [northwindExists] = await db
    .select({ id: tenants.id })
    .from(tenants)
    .where(eq(tenants.name, 'northwind'));
  if (northwindExists) {
    lines.push(
      '  Demo data is already loaded: sign in as admin@acme.example with the demo password of the first start.',
    );
    return { lines };
  }
  const passwordHash = await hashPassword(config.demoPassword);
  const [existingPlatformAdmin] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.role, 'platform_admin'))
    .limit(1);
  if (!existingPlatformAdmin) {
    await addAdmin(
      database,
      platform.id,
      {
        username: 'admin@platform.example',
        firstname: 'Platform',
        lastname: 'Admin',
        role: 'platform_admin',
        usertype: 1,
      },
      passwordHash,
    );
  }
  const [northwind] = await db
    .insert(tenants)
    .values({
      name: 'northwind',
      displayName: 'Northwind Security Partners',
      kind: 'partner',
      parentId: platform.id,
      themevalue: 'light',
      palette: 'corporate',
      primaryColor: '#1c5d99',
    })
    .returning();
  await addAdmin(
    database,
    northwind.id,
    {
      username: 'admin@northwind.example',
      firstname: 'Nora',
      lastname: 'Partner',
      role: 'partner_admin',
      usertype: 2,
    },
    passwordHash,
  );
  for (const [name, displayName, palette] of [
    ['acme', 'Acme Corporation', 'classic'],
    ['globex', 'Globex Industries', 'modern'],
  ] as const) {
    const [tenant] = await db
      .insert(tenants)
      .values({ name, displayName, kind: 'customer', parentId: northwind.id, themevalue: 'light', palette })
      .returning();
    await seedCustomer(database, tenant, passwordHash);
  }
  await seedPolicyTemplates(database);
  await seedSubscriptions(database, config);
  lines.push(
    '  Demo data loaded. Sign in with:',
    '    admin@acme.example      (tenant owner)       also admin@globex.example',
    '    admin@northwind.example (partner: acme, globex)',
    '    admin@platform.example  (platform administrator)',
    `  Password for every demo account: ${config.demoPassword}${config.isDemoPasswordGenerated ? '  (generated; set DEMO_PASSWORD to choose one)' : ''}`,
  );
  return { lines };
}

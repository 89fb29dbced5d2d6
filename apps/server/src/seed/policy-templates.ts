import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { tenants, users } from '../db/schema';
import type { Ctx } from '../lib/context';
import * as policies from '../modules/policies/policies.service';
import * as templates from '../modules/policy-templates/policy-templates.service';

/**
 * The demo partner's policy template, through the same services the API uses: Acme's web baseline (gambling and
 * executable downloads blocked), applied to Acme and Globex, so the console shows both in sync.
 */
export async function seedPolicyTemplates(database: Database): Promise<void> {
  const { db } = database;
  const [northwind] = await db.select().from(tenants).where(eq(tenants.name, 'northwind'));
  const [acme] = await db.select().from(tenants).where(eq(tenants.name, 'acme'));
  const [admin] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, northwind.id), eq(users.username, 'admin@northwind.example')));
  const ctx: Ctx = {
    tenant: { id: northwind.id, name: northwind.name, kind: 'partner' },
    actor: {
      id: admin.id,
      username: admin.username,
      role: 'partner_admin',
      usertype: 2,
      tenantId: northwind.id,
      tenantName: northwind.name,
      tenantKind: 'partner',
      sessionHash: '',
    },
    ip: null,
  };
  const lists = await policies.listPolicies(database, {
    ...ctx,
    tenant: { id: acme.id, name: acme.name, kind: 'customer' },
  });
  const wanted = ['Block gambling', 'Block executable downloads'];
  const policyIds = lists.user.filter((p) => wanted.includes(p.name)).map((p) => p.id);
  const template = await templates.createTemplate(database, ctx, {
    name: 'Web baseline',
    description: 'Gambling and executable downloads blocked in every customer.',
    sourceTenant: 'acme',
    policyIds,
  });
  await templates.applyTemplate(database, ctx, template.id, ['acme', 'globex']);
}

import { ALL_PERMISSIONS, type Permission, ROLE_PERMISSIONS, TENANT_ADMIN_ROLES } from '@palisade/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PASSWORD, useFixture } from '../../../test/helper';
import { customRoles, users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';

/**
 * Nobody raises their own rights: for every built-in role and for custom roles that may manage roles, every path
 * that grants something (a role's permissions, an assignment, an invitation, a token) is tried with every
 * permission the actor does not hold, and with every built-in role that holds more. Each is refused, and at the
 * end the actor holds exactly what it held, and nobody else holds more than before.
 */
const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const ROLES_ALL: Permission[] = ['roles:view', 'roles:create', 'roles:update', 'roles:delete'];

type ActorSpec =
  | { label: string; role: (typeof TENANT_ADMIN_ROLES)[number] }
  | { label: string; custom: Permission[] };

const ACTORS: ActorSpec[] = [
  ...TENANT_ADMIN_ROLES.map((role) => ({ label: role, role })),
  { label: 'custom roles:view+update', custom: ['roles:view', 'roles:update'] },
  { label: 'custom roles:*', custom: ROLES_ALL },
  { label: 'custom roles:* + users:*', custom: [...ROLES_ALL, 'users:view', 'users:create', 'users:update'] },
  { label: 'custom roles:create only', custom: ['roles:create'] },
];

let counter = 0;
async function makeAdmin(spec: { role: string; customRoleId?: string | null }) {
  counter += 1;
  const username = `actor${counter}@acme.test`;
  const [row] = await f.database.db
    .insert(users)
    .values({
      tenantId: f.acme.id,
      username,
      email: username,
      firstname: 'Actor',
      lastname: String(counter),
      usertype: 1,
      role: spec.role,
      customRoleId: spec.customRoleId ?? null,
      passwordHash: await hashPassword(PASSWORD),
      isEmailVerified: true,
    })
    .returning({ id: users.id });
  return { id: row.id, username };
}

async function makeRole(name: string, permissions: Permission[]) {
  const [row] = await f.database.db
    .insert(customRoles)
    .values({ tenantId: f.acme.id, name, permissions })
    .returning({ id: customRoles.id });
  return row.id;
}

const sessionPermissions = async (token: string) =>
  ((await f.app.inject({ url: '/api/session', headers: auth(token) })).json().permissions as string[]).sort();

describe('no path raises one’s own rights', () => {
  it('refuses every grant beyond what the actor holds, for every built-in role and role-managing custom roles', {
    timeout: 120_000,
  }, async () => {
    const everything = await makeRole('Everything', [...ALL_PERMISSIONS]);
    const target = await makeRole('Target', ['events:view']);
    const victim = await makeAdmin({ role: 'auditor' });
    const refusedPaths: string[] = [];
    let attempts = 0;

    for (const spec of ACTORS) {
      const ownRole = 'custom' in spec ? await makeRole(`Own ${spec.label}`, spec.custom) : null;
      const actor = await makeAdmin(
        'custom' in spec ? { role: 'custom', customRoleId: ownRole } : { role: spec.role },
      );
      const held = new Set<Permission>('custom' in spec ? spec.custom : ROLE_PERMISSIONS[spec.role]);
      const missing = ALL_PERMISSIONS.filter((p) => !held.has(p));
      const token = await f.signIn(actor.username);
      const before = await sessionPermissions(token);
      const send = async (method: 'POST' | 'PUT', url: string, payload: unknown, what: string) => {
        attempts += 1;
        const res = await f.app.inject({ method, url, headers: auth(token), payload: payload as object });
        if (res.statusCode < 400) refusedPaths.push(`${spec.label}: ${what} → ${res.statusCode}`);
      };

      for (const [i, p] of missing.entries()) {
        // Without the route's own permission one try shows the refusal; with it, every permission is tried.
        if (i === 0 || held.has('roles:create')) {
          await send(
            'POST',
            '/api/roles/acme',
            { name: `Grab ${p} ${counter}`, permissions: [p] },
            `create role ${p}`,
          );
        }
        if (i === 0 || held.has('roles:update')) {
          await send(
            'PUT',
            `/api/roles/acme/${target}`,
            { name: 'Target', permissions: ['events:view', p] },
            `edit role ${p}`,
          );
        }
        await send('POST', '/api/me/tokens', { name: `Grab ${p}`, permissions: [p] }, `token ${p}`);
        if (ownRole) {
          await send(
            'PUT',
            `/api/roles/acme/${ownRole}`,
            { name: `Own ${spec.label}`, permissions: [...held, p] },
            `edit own role ${p}`,
          );
        }
      }
      for (const role of TENANT_ADMIN_ROLES) {
        await send(
          'PUT',
          `/api/roles/acme/assignments/${actor.id}`,
          { role, customRoleId: null },
          `self → ${role}`,
        );
        const exceeds =
          ROLE_PERMISSIONS[role].some((p) => !held.has(p)) || (role === 'owner' && spec.label !== 'owner');
        if (exceeds) {
          await send(
            'PUT',
            `/api/roles/acme/assignments/${victim.id}`,
            { role, customRoleId: null },
            `victim → ${role}`,
          );
          await send(
            'POST',
            '/api/admins/acme/invite',
            {
              email: `invitee${counter}-${role}@acme.test`,
              firstname: 'I',
              lastname: 'N',
              role,
              customRoleId: null,
            },
            `invite ${role}`,
          );
        }
      }
      await send(
        'PUT',
        `/api/roles/acme/assignments/${actor.id}`,
        { role: null, customRoleId: everything },
        'self → Everything',
      );
      if (missing.length > 0) {
        await send(
          'PUT',
          `/api/roles/acme/assignments/${victim.id}`,
          { role: null, customRoleId: everything },
          'victim → Everything',
        );
      }

      expect(await sessionPermissions(token), spec.label).toEqual(before);
    }

    expect(refusedPaths).toEqual([]);
    expect(attempts).toBeGreaterThan(300);
    // Nobody else holds more either.
    const [victimRow] = await f.database.db.select().from(users).where(eq(users.id, victim.id));
    expect(victimRow).toMatchObject({ role: 'auditor', customRoleId: null });
    const [targetRow] = await f.database.db.select().from(customRoles).where(eq(customRoles.id, target));
    expect(targetRow.permissions).toEqual(['events:view']);
  });

  it('still lets a role manager give what it holds, to others', async () => {
    const manager = await makeRole('Manager', [...ROLES_ALL, 'users:view', 'events:view']);
    const actor = await makeAdmin({ role: 'custom', customRoleId: manager });
    const other = await makeAdmin({ role: 'auditor' });
    const token = await f.signIn(actor.username);
    const created = await f.app.inject({
      method: 'POST',
      url: '/api/roles/acme',
      headers: auth(token),
      payload: { name: 'Viewers', permissions: ['users:view', 'events:view'] },
    });
    expect(created.statusCode).toBe(201);
    // The auditor holds every :view; a role manager without them cannot touch the auditor…
    const outranked = await f.app.inject({
      method: 'PUT',
      url: `/api/roles/acme/assignments/${other.id}`,
      headers: auth(token),
      payload: { role: null, customRoleId: created.json().id },
    });
    expect(outranked.statusCode).toBe(403);
    expect(outranked.json().details).toEqual([{ path: 'params.id', message: 'validation.adminOutranks' }]);
    // …but can give a role within its own rights to someone who holds less.
    const junior = await makeAdmin({ role: 'custom', customRoleId: await makeRole('Nothing', []) });
    const given = await f.app.inject({
      method: 'PUT',
      url: `/api/roles/acme/assignments/${junior.id}`,
      headers: auth(token),
      payload: { role: null, customRoleId: created.json().id },
    });
    expect(given.statusCode).toBe(200);
  });

  it('says why a grant is refused', async () => {
    const manager = await makeRole('Helper', ['roles:view', 'roles:create', 'roles:update', 'users:view']);
    const actor = await makeAdmin({ role: 'custom', customRoleId: manager });
    const token = await f.signIn(actor.username);
    const create = await f.app.inject({
      method: 'POST',
      url: '/api/roles/acme',
      headers: auth(token),
      payload: { name: 'Deleters', permissions: ['users:view', 'users:delete', 'roles:delete'] },
    });
    expect(create.statusCode).toBe(400);
    expect(create.json().details).toEqual([
      {
        path: 'body.permissions',
        message: 'validation.permissionNotHeld',
        values: { permissions: 'users:delete, roles:delete' },
      },
    ]);
    const own = await f.app.inject({
      method: 'PUT',
      url: `/api/roles/acme/${manager}`,
      headers: auth(token),
      payload: { name: 'Helper', permissions: ['roles:view'] },
    });
    expect(own.statusCode).toBe(403);
    expect(own.json().details).toEqual([{ path: 'params.id', message: 'validation.ownRole' }]);
    const self = await f.app.inject({
      method: 'PUT',
      url: `/api/roles/acme/assignments/${actor.id}`,
      headers: auth(token),
      payload: { role: 'auditor', customRoleId: null },
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().details).toEqual([{ path: 'params.id', message: 'validation.ownAssignment' }]);
    const invite = await f.app.inject({
      method: 'POST',
      url: '/api/admins/acme/invite',
      headers: auth(token),
      payload: { email: 'big@acme.test', firstname: 'B', lastname: 'G', role: 'admin', customRoleId: null },
    });
    expect(invite.statusCode).toBe(400);
    expect(invite.json().details[0]).toMatchObject({ path: 'body.role', message: 'validation.roleNotHeld' });
  });
});

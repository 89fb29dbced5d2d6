import { endpoint, TenantParams } from '@palisade/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Actor } from '../lib/context';
import { route } from '../lib/route';
import { type Identities, registerAuth } from './auth';
import { registerErrorHandler } from './errors';

/**
 * The access check on its own, with the modules it asks (sessions, tokens, tenants) replaced by counters: what
 * it asks, how often, and in which order it refuses. The modules' own answers are tested with the real database
 * in their modules and in every route's 401/404/403 tests.
 */

const probe = endpoint({
  method: 'GET',
  path: '/probe/:tenant',
  access: 'users:view',
  summary: 'probe',
  tags: ['test'],
  params: TenantParams,
  response: z.object({ tenant: z.string(), actor: z.string() }),
});

const SESSION = 's'.repeat(43);

const acmeOwner: Actor = {
  id: 'u1',
  username: 'admin@acme.test',
  role: 'owner',
  usertype: 1,
  tenantId: 't-acme',
  tenantName: 'acme',
  tenantKind: 'customer',
  sessionHash: 'hash',
};

let app: FastifyInstance;

/** An app with the access check, one probe route, and a hook that asks for the actor first, as the rate limiter does. */
async function build(actor: Actor | null) {
  const asked = { sessions: 0, tokens: 0, tenants: [] as string[] };
  const identities: Identities = {
    sessionActor: async () => {
      asked.sessions += 1;
      return actor;
    },
    tokenActor: async () => {
      asked.tokens += 1;
      return null;
    },
    embedActor: async () => null,
    tenantNamed: async (name) => {
      asked.tenants.push(name);
      return name === 'globex' ? { id: 't-globex', name, kind: 'customer', parentId: null } : null;
    },
    gatewayOf: async () => null,
    deviceOf: async () => null,
    tenantFlags: async () => {
      throw new Error('no endpoint of this test is behind a flag');
    },
  };
  app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('ctx', null);
  registerErrorHandler(app);
  registerAuth(app, identities);
  app.addHook('onRequest', async (request) => {
    await app.auth.actorOf(request).catch(() => undefined);
  });
  route(app, null as never, probe, ({ ctx }) => ({ tenant: ctx.tenant.name, actor: ctx.actor.username }));
  await app.ready();
  return asked;
}

afterEach(async () => {
  await app?.close();
});

describe('the access check (plugins/auth.ts)', () => {
  it('resolves a request’s session once, though the rate limiter and the route both ask', async () => {
    const asked = await build(acmeOwner);
    const res = await app.inject({ url: '/probe/acme', headers: { 'x-auth-token': SESSION } });
    expect(res.json()).toEqual({ tenant: 'acme', actor: 'admin@acme.test' });
    expect(asked.sessions).toBe(1);
    // Its own tenant needs no look-up.
    expect(asked.tenants).toEqual([]);
  });

  it('remembers a refusal for the request too: 401, the session asked once', async () => {
    const asked = await build(null);
    const res = await app.inject({ url: '/probe/acme', headers: { 'x-auth-token': SESSION } });
    expect(res.statusCode).toBe(401);
    expect(asked.sessions).toBe(1);
  });

  it('asks for an API token only without X-Auth-Token, and refuses a malformed session without asking', async () => {
    const asked = await build(acmeOwner);
    const bearer = await app.inject({ url: '/probe/acme', headers: { authorization: 'Bearer pal_x' } });
    expect(bearer.statusCode).toBe(401);
    const short = await app.inject({ url: '/probe/acme', headers: { 'x-auth-token': 'short' } });
    expect(short.statusCode).toBe(401);
    expect(asked).toMatchObject({ sessions: 0, tokens: 1 });
  });

  it('answers 404 for a tenant the actor does not manage before any 403, and 403 on its own tenant', async () => {
    const asked = await build({ ...acmeOwner, role: 'billing_admin' });
    const other = await app.inject({ url: '/probe/globex', headers: { 'x-auth-token': SESSION } });
    expect(other.statusCode).toBe(404);
    expect(asked.tenants).toEqual(['globex']);
    const own = await app.inject({ url: '/probe/acme', headers: { 'x-auth-token': SESSION } });
    expect(own.statusCode).toBe(403);
  });

  it('refuses to register a guarded route on an app without the access check', () => {
    const bare = Fastify({ logger: false });
    expect(() => route(bare, null as never, probe, () => ({ tenant: '', actor: '' }))).toThrow(
      /register plugins\/auth\.ts before the routes/,
    );
  });
});

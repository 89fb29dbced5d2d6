import { policyEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
import type { PolicyCache } from '../policy-core/policy-core.service';
import * as policies from './policies.service';
import * as groups from './policy-groups.service';
import * as tests from './policy-tests.service';
import { simulate } from './simulation.service';
import { userPolicyView } from './user-policy-view.service';

/**
 * Policies and their rules, policy groups, policy tests, the simulator, lint and where-used. Decisions use
 * `cache`, the app instance's compiled policies.
 */
export function policiesRoutes(app: FastifyInstance, database: Database, cache: PolicyCache) {
  route(app, database, e.listPolicies, ({ ctx }) => policies.listPolicies(database, ctx));
  route(app, database, e.getPolicy, ({ ctx, params }) => policies.getPolicy(database, ctx, params.id));
  route(app, database, e.createPolicy, ({ ctx, body }) => policies.createPolicy(database, ctx, body));
  route(app, database, e.updatePolicy, ({ ctx, params, body }) =>
    policies.updatePolicy(database, ctx, params.id, body),
  );
  route(app, database, e.setPolicyEnabled, ({ ctx, params, body }) =>
    policies.setPolicyEnabled(database, ctx, params.id, body.enabled),
  );
  route(app, database, e.copyPolicy, ({ ctx, params, body }) =>
    policies.copyPolicy(database, ctx, params.id, body.name),
  );
  route(app, database, e.reorderPolicies, ({ ctx, body }) =>
    policies.reorderPolicies(database, ctx, body.list, body.ids),
  );
  route(app, database, e.deletePolicies, ({ ctx, body }) => policies.deletePolicies(database, ctx, body.ids));
  route(app, database, e.simulate, ({ ctx, body }) => simulate(database, cache, ctx, body));
  route(app, database, e.lint, ({ ctx, body }) => policies.lintPolicies(database, cache, ctx, body.draft));
  route(app, database, e.whereUsed, ({ ctx, query }) =>
    policies.whereUsed(database, ctx, query.kind, query.id),
  );

  route(app, database, e.userPolicyView, ({ ctx, query }) => userPolicyView(database, ctx, query));

  route(app, database, e.listPolicyTests, ({ ctx }) => tests.listPolicyTests(database, cache, ctx));
  route(app, database, e.createPolicyTest, ({ ctx, body }) =>
    tests.createPolicyTest(database, cache, ctx, body),
  );
  route(app, database, e.updatePolicyTest, ({ ctx, params, body }) =>
    tests.updatePolicyTest(database, cache, ctx, params.id, body),
  );
  route(app, database, e.deletePolicyTests, ({ ctx, body }) =>
    tests.deletePolicyTests(database, ctx, body.ids),
  );

  route(app, database, e.listPolicyGroups, ({ ctx }) => groups.listPolicyGroups(database, ctx));
  route(app, database, e.getPolicyGroup, ({ ctx, params }) =>
    groups.getPolicyGroup(database, ctx, params.id),
  );
  route(app, database, e.createPolicyGroup, ({ ctx, body }) => groups.createPolicyGroup(database, ctx, body));
  route(app, database, e.updatePolicyGroup, ({ ctx, params, body }) =>
    groups.updatePolicyGroup(database, ctx, params.id, body),
  );
  route(app, database, e.deletePolicyGroups, ({ ctx, body }) =>
    groups.deletePolicyGroups(database, ctx, body.ids),
  );
}

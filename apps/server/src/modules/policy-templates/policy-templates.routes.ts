import { policyTemplateEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
import * as service from './policy-templates.service';

/** Policy templates of a partner's console (`/partner/{tenant}/policy-templates`), applied across its tenants. */
export function policyTemplatesRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.listPolicyTemplates, ({ ctx, query }) =>
    service.listTemplates(database, ctx, query),
  );
  route(app, database, e.createPolicyTemplate, ({ ctx, body }) =>
    service.createTemplate(database, ctx, body),
  );
  route(app, database, e.getPolicyTemplate, ({ ctx, params }) =>
    service.getTemplate(database, ctx, params.id),
  );
  route(app, database, e.updatePolicyTemplate, ({ ctx, params, body }) =>
    service.updateTemplate(database, ctx, params.id, body),
  );
  route(app, database, e.deletePolicyTemplate, ({ ctx, params }) =>
    service.deleteTemplate(database, ctx, params.id),
  );
  route(app, database, e.previewPolicyTemplate, ({ ctx, params, body }) =>
    service.previewTemplate(database, ctx, params.id, body.tenants),
  );
  route(app, database, e.applyPolicyTemplate, ({ ctx, params, body }) =>
    service.applyTemplate(database, ctx, params.id, body.tenants),
  );
  route(app, database, e.policyTemplateStatus, ({ ctx, params, query }) =>
    service.templateStatus(database, ctx, params.id, query),
  );
}

import { enrolmentEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/route';
import * as service from './enrolment.service';

/** End users' devices, their enrolment links, deployment keys, and the public enrolment the client calls. */
export function enrolmentRoutes(app: FastifyInstance, deps: service.EnrolmentDeps) {
  const { database } = deps;
  route(app, database, e.listUserDevices, ({ ctx, query }) => service.listUserDevices(deps, ctx, query));
  route(app, database, e.exportUserDevices, ({ ctx, query, reply }) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="users-devices-${ctx.tenant.name}.csv"`)
      .send(service.exportUserDevices(deps, ctx, query)),
  );
  route(app, database, e.createUserLink, ({ ctx, params, body }) =>
    service.createUserLink(deps, ctx, params.id, body),
  );
  route(app, database, e.revokeUserLink, ({ ctx, params }) => service.revokeUserLink(deps, ctx, params.id));
  route(app, database, e.listDeviceOptions, ({ ctx, query }) => service.listDeviceOptions(deps, ctx, query));
  route(app, database, e.getDevice, ({ ctx, params }) => service.getDevice(deps, ctx, params.id));
  route(app, database, e.deleteDevices, ({ ctx, body }) => service.deleteDevices(deps, ctx, body.ids));
  route(app, database, e.listDeploymentKeys, ({ ctx }) => service.listDeploymentKeys(deps, ctx));
  route(app, database, e.createDeploymentKey, ({ ctx, body }) =>
    service.createDeploymentKey(deps, ctx, body),
  );
  route(app, database, e.revokeDeploymentKey, ({ ctx, params }) =>
    service.revokeDeploymentKey(deps, ctx, params.id),
  );
  route(app, database, e.enrolmentInfo, ({ params }) => service.enrolmentInfo(deps, params.token));
  route(app, database, e.enrol, ({ body, request }) => service.enrol(deps, body, request.ip ?? null));
}

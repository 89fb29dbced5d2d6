import {
  deviceClientEndpoints as c,
  deviceEndpoints as d,
  enrolmentEndpoints as e,
} from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import { deviceCtx, route } from '../../lib/route';
import * as devices from './devices.service';
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
  route(app, database, e.enrol, ({ body, request }) =>
    service.enrol(deps, body, request.ip ?? null, request.log),
  );

  // The device inventory: endpoints and site gateways.
  route(app, database, d.listDevices, ({ ctx, query }) => devices.listDevices(database, ctx, query));
  route(app, database, d.exportDevices, ({ ctx, query, reply }) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="devices-${ctx.tenant.name}.csv"`)
      .send(devices.exportDevices(database, ctx, query)),
  );
  route(app, database, d.bulkDevices, ({ ctx, body }) => devices.bulkDevices(deps, ctx, body));
  route(app, database, d.getDeviceSettings, ({ ctx }) => devices.getDeviceSettings(database, ctx));
  route(app, database, d.updateDeviceSettings, ({ ctx, body }) =>
    devices.updateDeviceSettings(database, ctx, body),
  );
  route(app, database, d.getDeviceDetail, ({ ctx, params }) =>
    devices.getDeviceDetail(database, ctx, params.id),
  );
  route(app, database, d.updateDevice, ({ ctx, params, body }) =>
    devices.updateDevice(database, ctx, params.id, body.name),
  );
  route(app, database, d.downloadDeviceConfig, ({ ctx, params }) =>
    devices.downloadDeviceConfig(database, ctx, params.id),
  );
  route(app, database, d.expireDeviceKey, ({ ctx, params }) =>
    devices.expireDeviceKey(database, ctx, params.id),
  );

  // The client, with its device credential.
  route(app, database, c.checkin, ({ request, body }) =>
    devices.checkin(database, deviceCtx(request), body, request.log),
  );
  route(app, database, c.rotateKey, ({ request, body }) =>
    devices.rotateKey(database, deviceCtx(request), body.publicKey, request.log),
  );
}

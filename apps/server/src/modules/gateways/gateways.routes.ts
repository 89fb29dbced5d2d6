import {
  bundleEndpoints as b,
  gatewayEndpoints as e,
  GW_EVENTS_MAX_BATCH,
  gwEndpoints as gw,
  internalDeviceEndpoints as internal,
  localControlsEndpoints as lc,
  meshEndpoints as mesh,
  networkEndpoints as n,
  privateAccessEndpoints as pa,
  sitePerformanceEndpoints as perf,
  siteConfigEndpoints as site,
} from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import { gatewayCtx, route } from '../../lib/route';
import { ingestGatewayEvents, parseEventLines } from '../telemetry/telemetry.service';
import { acceptsDelta, acceptsGzip, bundleAnswer } from './bundle-wire';
import * as service from './gateways.service';
import * as internalDevices from './internal-devices.service';
import * as localControls from './local-controls.service';
import * as meshService from './mesh.service';
import * as access from './private-access.service';
import * as siteService from './site-config.service';
import { getSitePerformance } from './site-performance.service';

/** NDJSON batches of up to {@link GW_EVENTS_MAX_BATCH} events (about 1 kB each). */
const MAX_EVENTS_BYTES = GW_EVENTS_MAX_BATCH * 2048;

/** The administrators' gateway screens and the gateway protocol under `/api/gw/`. */
export function gatewaysRoutes(app: FastifyInstance, deps: service.GatewayDeps) {
  const { database } = deps;
  route(app, database, e.listGateways, ({ ctx, query }) => service.listGateways(deps, ctx, query));
  route(app, database, e.getGateway, ({ ctx, params }) => service.getGateway(deps, ctx, params.id));
  route(app, database, e.createGateway, ({ ctx, body }) => service.createGateway(deps, ctx, body));
  route(app, database, e.updateGateway, ({ ctx, params, body }) =>
    service.updateGateway(deps, ctx, params.id, body),
  );
  route(app, database, e.retireGateway, ({ ctx, params }) => service.retireGateway(deps, ctx, params.id));
  route(app, database, e.rotateGatewayCredentials, ({ ctx, params }) =>
    service.rotateCredentials(deps, ctx, params.id),
  );
  route(app, database, e.upgradeGateway, ({ ctx, params, body }) =>
    service.upgradeGateway(deps, ctx, params.id, body.targetVersion),
  );

  route(app, database, site.getSiteConfig, ({ ctx, params }) =>
    siteService.getSiteConfig(deps, ctx, params.id),
  );
  route(app, database, site.putSiteConfig, ({ ctx, params, body }) =>
    siteService.putSiteConfig(deps, ctx, params.id, body),
  );

  route(app, database, lc.listLocalControls, ({ ctx }) => localControls.listLocalControls(database, ctx));
  route(app, database, lc.getLocalControls, ({ ctx, params }) =>
    localControls.getLocalControls(database, ctx, params.id),
  );
  route(app, database, lc.putLocalControls, ({ ctx, params, body }) =>
    localControls.putLocalControls(database, ctx, params.id, body),
  );
  route(app, database, perf.getSitePerformance, ({ ctx, query }) => getSitePerformance(database, ctx, query));

  // Private access through site gateways: published services and the ZTNA firewall.
  route(app, database, pa.listPrivateServices, ({ ctx }) => access.listPrivateServices(database, ctx));
  route(app, database, pa.createPrivateService, ({ ctx, body }) =>
    access.savePrivateService(database, ctx, null, body),
  );
  route(app, database, pa.updatePrivateService, ({ ctx, params, body }) =>
    access.savePrivateService(database, ctx, params.id, body),
  );
  route(app, database, pa.deletePrivateService, ({ ctx, params }) =>
    access.deleteEntry(database, ctx, 'service', params.id),
  );
  route(app, database, mesh.getMesh, ({ ctx }) => meshService.getMesh(deps, ctx));
  route(app, database, mesh.putMesh, ({ ctx, body }) => meshService.saveMesh(deps, ctx, body));
  route(app, database, pa.listZtnaRules, ({ ctx }) => access.listZtnaRules(database, ctx));
  route(app, database, pa.createZtnaRule, ({ ctx, body }) => access.saveZtnaRule(database, ctx, null, body));
  route(app, database, pa.updateZtnaRule, ({ ctx, params, body }) =>
    access.saveZtnaRule(database, ctx, params.id, body),
  );
  route(app, database, pa.deleteZtnaRule, ({ ctx, params }) =>
    access.deleteEntry(database, ctx, 'rule', params.id),
  );

  // Hosts seen behind site gateways (their heartbeats' DHCP leases and ARP tables).
  route(app, database, internal.listInternalDevices, ({ ctx, query }) =>
    internalDevices.listInternalDevices(database, ctx, query),
  );
  route(app, database, internal.getInternalDevice, ({ ctx, params }) =>
    internalDevices.getInternalDevice(database, ctx, params.id),
  );
  route(app, database, internal.forgetInternalDevice, ({ ctx, params }) =>
    internalDevices.forgetInternalDevice(database, ctx, params.id),
  );

  route(app, database, b.listBundles, ({ ctx }) => service.listBundles(deps, ctx));
  route(app, database, b.diffBundle, ({ ctx, params }) => service.diffBundle(deps, ctx, params.version));
  route(app, database, b.pushBundle, ({ ctx, params }) => service.pushBundle(deps, ctx, params.version));
  route(app, database, b.previewBundle, ({ ctx, body }) =>
    service.previewBundle(deps, ctx, body.policyId, body.policy),
  );

  route(app, database, n.cgwDynamicInfo, ({ ctx }) => service.cgwDynamicInfo(deps, ctx));
  route(app, database, n.exEdgeInfo, ({ ctx }) => service.exEdgeInfo(deps, ctx));
  route(app, database, n.ocnConfig, ({ ctx }) => service.ocnConfig(deps, ctx));
  route(app, database, n.virtualSessions, ({ ctx }) => service.virtualSessions(deps, ctx));
  route(app, database, n.cgwsUsers, ({ ctx }) => service.cgwsUsers(deps, ctx));
  route(app, database, n.listRoutes, ({ ctx }) => service.listRoutes(deps, ctx));
  route(app, database, n.getRoute, ({ ctx, params }) => service.getRoute(deps, ctx, params.id));
  route(app, database, n.getDeviceRoute, ({ ctx, params }) =>
    service.deviceRoute(deps, ctx, params.id, params.deviceId),
  );

  route(app, database, gw.enrol, async ({ body, request }) => {
    const { row, credential } = await service.enrol(deps, body, request.ip ?? null);
    return {
      gatewayId: row.id,
      tenant: row.tenantId,
      credential,
      wireguard: { address: row.wgAddress ?? '', listenPort: row.listenPort ?? 0 },
      heartbeatMs: service.HEARTBEAT_MS,
    };
  });
  route(app, database, gw.bundle, async ({ query, request, reply }) => {
    const match = request.headers['if-none-match'];
    const have = typeof match === 'string' ? match.replace(/^W\//, '').replace(/"/g, '') : null;
    const aborted = new AbortController();
    request.raw.once('close', () => aborted.abort());
    const read = await service.waitForBundle(deps, gatewayCtx(request), have, have ? query.wait : 0, {
      recheck: () => app.auth.recheck(request, 'gateway'),
      signal: aborted.signal,
    });
    if (!read) return reply.code(304).header('etag', `"${have}"`).send();
    const { bundle } = read;
    // Gzipped and as a delta from `have` where the gateway takes them (bundle-wire.ts).
    const answer = await bundleAnswer(deps, gatewayCtx(request), read, {
      have,
      gzip: acceptsGzip(request.headers['accept-encoding']),
      delta: acceptsDelta(request.headers['a-im']),
    });
    return reply
      .code(answer.status)
      .headers(answer.headers)
      .header('etag', `"${bundle.version}"`)
      .header('cache-control', 'no-store')
      .send(answer.body);
  });
  route(app, database, gw.heartbeat, ({ body, request }) =>
    service.heartbeat(deps, gatewayCtx(request), body),
  );

  if (!app.hasContentTypeParser('application/x-ndjson')) {
    app.addContentTypeParser(
      'application/x-ndjson',
      { parseAs: 'string', bodyLimit: MAX_EVENTS_BYTES },
      (_request, body, done) => done(null, body),
    );
  }
  route(app, database, gw.events, ({ request }) =>
    ingestGatewayEvents(database, gatewayCtx(request), parseEventLines(request.body)),
  );
}

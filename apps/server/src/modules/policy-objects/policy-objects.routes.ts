import { policyObjectEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
import * as apps from './apps.service';
import * as categories from './categories.service';
import * as feeds from './feeds.service';
import * as geo from './geo.service';
import * as locations from './locations.service';

/** The objects policy rules use: locations, apps, categories, feeds, malicious IPs, geo and blocked apps. */
export function policyObjectsRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.listLocations, ({ ctx }) => locations.listLocations(database, ctx));
  route(app, database, e.createLocation, ({ ctx, body }) => locations.createLocation(database, ctx, body));
  route(app, database, e.updateLocation, ({ ctx, params, body }) =>
    locations.updateLocation(database, ctx, params.id, body),
  );
  route(app, database, e.deleteLocations, ({ ctx, body }) =>
    locations.deleteLocations(database, ctx, body.ids),
  );

  route(app, database, e.listApps, ({ ctx, query }) => apps.listApps(database, ctx, query));
  route(app, database, e.createApp, ({ ctx, body }) => apps.createApp(database, ctx, body));
  route(app, database, e.updateApp, ({ ctx, params, body }) =>
    apps.updateApp(database, ctx, params.appid, body),
  );
  route(app, database, e.deleteApps, ({ ctx, body }) => apps.deleteApps(database, ctx, body.appids));

  route(app, database, e.listCategories, ({ ctx }) => categories.listCategories(database, ctx));
  route(app, database, e.lookupDomain, ({ ctx, query }) =>
    categories.lookupDomain(database, ctx, query.domain),
  );
  route(app, database, e.setCategoryAction, ({ ctx, params, body }) =>
    categories.setCategoryAction(database, ctx, params.id, body.action),
  );
  route(app, database, e.createCategory, ({ ctx, body }) => categories.createCategory(database, ctx, body));
  route(app, database, e.updateCategory, ({ ctx, params, body }) =>
    categories.updateCategory(database, ctx, params.id, body),
  );
  route(app, database, e.deleteCategories, ({ ctx, body }) =>
    categories.deleteCategories(database, ctx, body.ids),
  );

  route(app, database, e.listFeeds, ({ ctx }) => feeds.listFeeds(database, ctx));
  route(app, database, e.createUrlFeed, ({ ctx, body }) => feeds.createUrlFeed(database, ctx, body));
  route(app, database, e.uploadFeed, ({ ctx, body }) => feeds.uploadFeed(database, ctx, body));
  route(app, database, e.updateFeed, ({ ctx, params, body }) =>
    feeds.updateFeed(database, ctx, params.id, body),
  );
  route(app, database, e.refreshFeed, ({ ctx, params }) => feeds.refreshFeed(database, ctx, params.id));
  route(app, database, e.deleteFeeds, ({ ctx, body }) => feeds.deleteFeeds(database, ctx, body.ids));
  route(app, database, e.listMaliciousIps, ({ ctx, query }) => feeds.listMaliciousIps(database, ctx, query));

  route(app, database, e.getGeoControls, ({ ctx }) => geo.getGeoControls(database, ctx));
  route(app, database, e.setGeoControls, ({ ctx, body }) => geo.setGeoControls(database, ctx, body.blocked));
  route(app, database, e.lookupGeo, ({ query }) => geo.lookupGeo(query.ip));

  route(app, database, e.getBlockedApps, ({ ctx }) => apps.getBlockedApps(database, ctx));
  route(app, database, e.setBlockedApps, ({ ctx, body }) => apps.setBlockedApps(database, ctx, body.appids));
}

import type { Database } from '../db/client';
import type { Ctx } from '../lib/context';
import * as apps from '../modules/policy-objects/apps.service';
import * as categories from '../modules/policy-objects/categories.service';
import { BUILTIN_FEEDS } from '../modules/policy-objects/data/feeds';
import * as feeds from '../modules/policy-objects/feeds.service';
import * as geo from '../modules/policy-objects/geo.service';
import * as locations from '../modules/policy-objects/locations.service';
import { ensureBuiltinFeedRow } from '../modules/policy-objects/policy-objects.repository';

/**
 * A customer's demo policy objects, through the services the API uses: the headquarters location, an intranet
 * app, the security categories blocked, North Korea blocked, the built-in feed rows and a small uploaded feed.
 */
export async function seedPolicyObjects(database: Database, ctx: Ctx): Promise<void> {
  const tenantId = ctx.tenant.id;
  await locations.createLocation(database, ctx, {
    name: 'HQ Berlin',
    description: 'Headquarters: the office uplink (documentation range) and the office LAN.',
    networks: ['203.0.113.8/29', '10.10.0.0/16'],
  });
  await apps.createApp(database, ctx, {
    appname: 'Intranet portal',
    category: 'productivity',
    domains: [`intranet.${ctx.tenant.name}.example`, `wiki.${ctx.tenant.name}.example`],
    ips: ['10.10.20.5'],
  });
  for (const id of ['malware', 'phishing', 'command-and-control']) {
    await categories.setCategoryAction(database, ctx, id, 'block');
  }
  await geo.setGeoControls(database, ctx, ['KP']);
  await database.tenantTx(tenantId, async (tx) => {
    for (const feed of BUILTIN_FEEDS) {
      await ensureBuiltinFeedRow(tx, tenantId, {
        id: feed.id,
        name: feed.name,
        enabled: feed.enabledByDefault,
      });
    }
  });
  await feeds.uploadFeed(database, ctx, {
    name: 'SOC watchlist',
    fileName: 'soc-watchlist.txt',
    content: [
      '# Indicators from the SOC, test data only (documentation ranges and reserved .test names)',
      '198.51.100.23',
      '203.0.113.0/25',
      'c2-callback.watchlist.test',
    ].join('\n'),
    enabled: true,
  });
}

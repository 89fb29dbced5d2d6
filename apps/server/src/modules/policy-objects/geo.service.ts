import type { GeoControls } from '@palisade/contracts';
import { parseIpv4 } from '@palisade/contracts';
import type { Database } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { invalid } from '../../lib/errors';
import {
  countryList,
  GEOIP_DATABASE_NAME,
  geoDatabaseBuiltAt,
  isKnownCountry,
  lookupCountry,
} from '../policy-core/geoip';
import { commitPolicyChange } from '../policy-core/policy-core.service';
import * as repo from './policy-objects.repository';

// Geo controls: the countries blocked for the whole tenant, and the country of an address.

function presentGeo(blocked: string[]): GeoControls {
  return {
    blocked,
    countries: [...countryList()],
    database: { name: GEOIP_DATABASE_NAME, builtAt: geoDatabaseBuiltAt() },
  };
}

export function getGeoControls(database: Database, ctx: Ctx): Promise<GeoControls> {
  return database.tenantTx(ctx.tenant.id, async (tx) =>
    presentGeo(await repo.listGeoBlocked(tx, ctx.tenant.id)),
  );
}

/** Replaces the blocked countries; every code must be a country of the list. */
export function setGeoControls(database: Database, ctx: Ctx, blocked: string[]) {
  const unknown = blocked
    .map((code, i) => ({ code, i }))
    .filter(({ code }) => !isKnownCountry(code))
    .map(({ i }) => ({ path: `body.blocked.${i}`, message: 'validation.country' }));
  if (unknown.length > 0) return Promise.reject(invalid(unknown));
  const wanted = [...blocked].sort();
  return commitPolicyChange(database, ctx, async (tx) => {
    const before = await repo.listGeoBlocked(tx, ctx.tenant.id);
    await repo.setGeoBlocked(tx, ctx.tenant.id, wanted);
    await recordEvent(tx, ctx, {
      action: 'policy.geo.update',
      objectType: 'geo',
      objectId: ctx.tenant.id,
      objectName: ctx.tenant.name,
      before: { blocked: before },
      after: { blocked: wanted },
    });
    return presentGeo(wanted);
  });
}

/** The country of an IPv4 address in the shipped database (null when it has none). */
export function lookupGeo(ip: string) {
  const address = ip.trim();
  if (parseIpv4(address) === null) throw invalid([{ path: 'query.ip', message: 'validation.ip' }]);
  return { ip: address, country: lookupCountry(address) };
}

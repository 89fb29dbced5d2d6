import { gunzipSync } from 'node:zlib';
import { generateKeyPair } from '@palisade/gateway-config';
import {
  applyDelta,
  BUNDLE_DELTA_CONTENT_TYPE,
  BUNDLE_DELTA_IM,
  type BundleDelta,
  bundleFromParts,
  bundleParts,
} from '@palisade/gateway-config/bundle-delta';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { policyApi, rule } from '../policies/policies.test-kit';

/** `GET /gw/bundle` on the wire: gzip when asked, and a delta from the version the gateway holds. */
const f = useFixture();
const policies = policyApi(f);
let owner: string;
let credential: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const created = await policies.call('POST', '/api/cybernodes/acme', owner, {
    name: 'Wire',
    kind: 'cgw',
    region: 'Berlin',
  });
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey: generateKeyPair().publicKey,
      hostname: 'wire.acme.test',
      version: '1.0.0',
    },
  });
  credential = enrolled.json().credential;
});

const fetchBundle = (headers: Record<string, string> = {}, wait = 0) =>
  f.app.inject({
    method: 'GET',
    url: `/api/gw/bundle?wait=${wait}`,
    headers: { authorization: `Bearer ${credential}`, ...headers },
  });

const saveBlock = (name: string) =>
  policies.create(owner, { type: 'other', name, rules: [rule({ name, url: `${name}.example` })] });

describe('gw/bundle on the wire', () => {
  it('is gzipped when the gateway accepts gzip, and the same bundle as uncompressed', async () => {
    const plain = await fetchBundle();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const packed = await fetchBundle({ 'accept-encoding': 'gzip, br' });
    expect(packed.statusCode).toBe(200);
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers.etag).toBe(plain.headers.etag);
    expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(gunzipSync(packed.rawPayload).toString('utf8'))).toEqual(plain.json());
    // q=0 refuses it.
    expect(
      (await fetchBundle({ 'accept-encoding': 'gzip;q=0' })).headers['content-encoding'],
    ).toBeUndefined();
  });

  it('answers a gateway holding the previous version with a delta that makes the new bundle exactly', async () => {
    const before = (await fetchBundle()).json();
    await saveBlock('wire-delta');
    const answer = await fetchBundle(
      { 'if-none-match': `"${before.version}"`, 'a-im': BUNDLE_DELTA_IM, 'accept-encoding': 'gzip' },
      5,
    );
    expect(answer.statusCode).toBe(226);
    expect(answer.headers['content-type']).toBe(BUNDLE_DELTA_CONTENT_TYPE);
    expect(answer.headers.im).toBe(BUNDLE_DELTA_IM);
    expect(answer.headers['delta-base']).toBe(`"${before.version}"`);
    const delta = JSON.parse(gunzipSync(answer.rawPayload).toString('utf8')) as BundleDelta;
    expect(delta.from).toBe(before.version);
    // The new RPZ lines and rule travel, not the artefacts that did not change.
    expect(Object.keys(delta.parts)).toEqual(
      expect.arrayContaining(['artefacts.rpz', 'policy#json', 'version']),
    );
    expect(Object.keys(delta.parts)).not.toContain('artefacts.wireguard');

    const full = await fetchBundle();
    expect(answer.headers.etag).toBe(full.headers.etag);
    const made = bundleFromParts(applyDelta(bundleParts(before), delta));
    expect(made).toEqual(full.json());
    expect(JSON.stringify(delta).length).toBeLessThan(full.rawPayload.length);
  });

  it('sends the full bundle without A-IM, and when the version held is not kept', async () => {
    const before = (await fetchBundle()).json();
    await saveBlock('wire-full');
    const withoutDelta = await fetchBundle({ 'if-none-match': `"${before.version}"` }, 5);
    expect(withoutDelta.statusCode).toBe(200);
    expect(withoutDelta.json().version).not.toBe(before.version);
    const unknownBase = await fetchBundle({
      'if-none-match': '"0123456789abcdef.01234567"',
      'a-im': BUNDLE_DELTA_IM,
    });
    expect(unknownBase.statusCode).toBe(200);
    expect(unknownBase.json()).toEqual(withoutDelta.json());
  });

  it('still answers 304 when nothing changed, and 401 without a credential', async () => {
    const current = (await fetchBundle()).json();
    const unchanged = await fetchBundle(
      { 'if-none-match': `"${current.version}"`, 'a-im': BUNDLE_DELTA_IM },
      0,
    );
    expect(unchanged.statusCode).toBe(304);
    expect((await f.app.inject({ method: 'GET', url: '/api/gw/bundle?wait=0' })).statusCode).toBe(401);
  });
});

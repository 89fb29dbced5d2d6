import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRIVATE_KEY_PLACEHOLDER, wireguardConfig } from '@palisade/gateway-config';
import { generateKeyPair } from '@palisade/gateway-config/keys';
import { afterAll, describe, expect, it } from 'vitest';
import { stripWgQuick, withBlockPageAddress, withPrivateKey, writeArtefacts } from './artefacts';
import { TOOL_ENV } from './exec';
import { loadState } from './state';
import { needsTest } from './test-kit';

const dir = mkdtempSync(join(tmpdir(), 'pgw-art-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const peer = generateKeyPair().publicKey;
const config = wireguardConfig({
  address: ['100.100.3.1/24', 'fd00::1/64'],
  listenPort: 51821,
  peers: [{ publicKey: peer, allowedIps: ['100.100.3.2/32'], name: 'laptop', persistentKeepalive: 25 }],
  privateKeyPlaceholder: true,
});

describe('artefacts', () => {
  it('substitutes the private key for the placeholder, or adds it when the line is missing', () => {
    const { privateKey } = generateKeyPair();
    const keyed = withPrivateKey(config, privateKey);
    expect(keyed).not.toContain(PRIVATE_KEY_PLACEHOLDER);
    expect(keyed).toContain(`PrivateKey = ${privateKey}`);
    const without = wireguardConfig({ address: '10.0.0.1/24', listenPort: 1, peers: [] });
    expect(withPrivateKey(without, privateKey)).toMatch(/^\[Interface\]\nPrivateKey = /m);
    expect(() => withPrivateKey(keyed, privateKey)).toThrow(/names a private key/);
  });

  it('strips the wg-quick keys, keeping the addresses aside', () => {
    const { privateKey } = generateKeyPair();
    const stripped = stripWgQuick(
      withPrivateKey(config, privateKey).replace('[Peer]', 'MTU = 1380\nPostUp = echo hi\n[Peer]'),
    );
    expect(stripped.addresses).toEqual(['100.100.3.1/24', 'fd00::1/64']);
    expect(stripped.mtu).toBe(1380);
    expect(stripped.config).not.toMatch(/Address|PostUp|MTU|#/);
    expect(stripped.config).toContain('ListenPort = 51821');
    expect(stripped.config).toContain(`PublicKey = ${peer}`);
  });

  needsTest('strips like wg-quick strip', ['wg-quick', 'wg'], () => {
    const { privateKey } = generateKeyPair();
    const path = join(dir, 'pgwtest.conf');
    writeFileSync(path, withPrivateKey(config, privateKey), { mode: 0o600 });
    const theirs = execFileSync('wg-quick', ['strip', path], { env: TOOL_ENV, encoding: 'utf8' });
    const norm = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.startsWith('#'))
        .map((l) => l.replace(/\s*=\s*/, ' = '));
    expect(norm(stripWgQuick(readFileSync(path, 'utf8')).config)).toEqual(norm(theirs));
  });

  it('writes every artefact atomically (no temporary file left), the keyed one 0600, bundle.json last', async () => {
    const { privateKey } = generateKeyPair();
    const bundle = {
      version: 'v1.abc',
      createdAt: new Date().toISOString(),
      artefacts: {
        wireguard: config,
        nftables: 'table inet palisade {}\n',
        rpz: '$ORIGIN rpz.palisade.\n',
        squid: '# s\n',
        ztna: 'table inet palisade_ztna {}\n',
      },
      policy: {},
      skipped: [],
    };
    const out = join(dir, 'out');
    const { paths } = await writeArtefacts(out, bundle, privateKey);
    expect(readdirSync(out).sort()).toEqual([
      'bundle.json',
      'local-rpz.zone',
      'local.nft',
      'nftables.nft',
      'rpz-audiences.zones',
      'rpz.zone',
      'site-interfaces.sh',
      'site.nft',
      'squid.conf',
      'wireguard.conf',
      'ztna.nft',
    ]);
    expect(readFileSync(paths.ztna, 'utf8')).toBe('table inet palisade_ztna {}\n');
    // A bundle without site artefacts (a cybernode's, or a site nobody configured) leaves them empty.
    expect(readFileSync(paths.site, 'utf8')).toBe('');
    expect(statSync(paths.wireguard).mode & 0o777).toBe(0o600);
    expect(readFileSync(paths.wireguard, 'utf8')).toContain(privateKey);
    expect(readFileSync(paths.bundle, 'utf8')).not.toContain(privateKey);
    expect(JSON.parse(readFileSync(paths.bundle, 'utf8')).version).toBe('v1.abc');
    expect(statSync(paths.bundle).mtimeMs).toBeGreaterThanOrEqual(statSync(paths.nftables).mtimeMs);
  });

  it('keeps its state 0600 and refuses one others may read', async () => {
    const state = join(dir, 'state');
    const made = await loadState(state);
    expect(statSync(join(state, 'state.json')).mode & 0o777).toBe(0o600);
    expect(await loadState(state)).toEqual(made);
    execFileSync('chmod', ['644', join(state, 'state.json')]);
    await expect(loadState(state)).rejects.toThrow(/readable by others/);
  });
});

describe('withBlockPageAddress', () => {
  it("answers the block page's DNS blocks with the gateway's own tunnel address, and nothing else", () => {
    const zone = [
      '$ORIGIN rpz.palisade.',
      'casino.example A 192.0.2.1',
      '*.casino.example 60 IN A 192.0.2.1 ; block page',
      'threat.example CNAME .',
      'other.example A 192.0.2.10',
      'rewrite.example A 192.0.2.1.example.',
      '',
    ].join('\n');
    expect(withBlockPageAddress(zone, '10.64.0.1').split('\n')).toEqual([
      '$ORIGIN rpz.palisade.',
      'casino.example A 10.64.0.1',
      '*.casino.example 60 IN A 10.64.0.1 ; block page',
      'threat.example CNAME .',
      'other.example A 192.0.2.10',
      'rewrite.example A 192.0.2.1.example.',
      '',
    ]);
    // No IPv4 tunnel address: the placeholder stays (never routed, the name stays blocked).
    expect(withBlockPageAddress(zone, undefined)).toBe(zone);
    expect(withBlockPageAddress(zone, 'fd00::1')).toBe(zone);
  });
});

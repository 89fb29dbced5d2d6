import { join } from 'node:path';
import type { GwBundle } from '@palisade/contracts';
import { PRIVATE_KEY_PLACEHOLDER } from '@palisade/gateway-config/wireguard';
import { writeFileAtomic } from './files';

/** The files a bundle is written to in the gateway's directory. */
export const ARTEFACT_FILES = {
  /** wg-quick format, with the gateway's private key (mode 0600). */
  wireguard: 'wireguard.conf',
  nftables: 'nftables.nft',
  rpz: 'rpz.zone',
  squid: 'squid.conf',
  /** A site gateway's ZTNA firewall; empty for a cybernode (nothing to load). */
  ztna: 'ztna.nft',
  /** A site gateway's local controls for its LANs: a table loaded beside the policy's, and an RPZ zone. */
  local: 'local.nft',
  localRpz: 'local-rpz.zone',
  /** A site gateway's own nftables table and interface script (written for the operator; not applied). */
  site: 'site.nft',
  siteInterfaces: 'site-interfaces.sh',
  /** The whole bundle as received (no private key in it), written last: its version is what the files hold. */
  bundle: 'bundle.json',
} as const;

export type ArtefactPaths = { [K in keyof typeof ARTEFACT_FILES]: string };

export const artefactPaths = (dir: string): ArtefactPaths =>
  Object.fromEntries(
    Object.entries(ARTEFACT_FILES).map(([k, name]) => [k, join(dir, name)]),
  ) as ArtefactPaths;

/** The wg-quick configuration with the gateway's own private key in place of the server's placeholder. */
export function withPrivateKey(config: string, privateKey: string): string {
  if (config.includes(PRIVATE_KEY_PLACEHOLDER)) return config.replaceAll(PRIVATE_KEY_PLACEHOLDER, privateKey);
  if (/^\s*PrivateKey\s*=/m.test(config)) throw new Error('the WireGuard configuration names a private key');
  // No line at all (the generator's default): add it under [Interface].
  return config.replace(/^\[Interface\][^\n]*\n/m, (line) => `${line}PrivateKey = ${privateKey}\n`);
}

/** The [Interface] keys only wg-quick understands (`wg setconf` refuses them). */
const WG_QUICK_ONLY = new Set([
  'address',
  'dns',
  'mtu',
  'table',
  'preup',
  'postup',
  'predown',
  'postdown',
  'saveconfig',
]);

export interface Stripped {
  /** The configuration `wg setconf` reads. */
  config: string;
  /** The interface addresses (`Address`), with their prefix. */
  addresses: string[];
  mtu: number | null;
}

/** `wg-quick strip`, in code: the wg-quick-only keys of [Interface] taken out, Address and MTU kept aside. */
export function stripWgQuick(config: string): Stripped {
  const addresses: string[] = [];
  let mtu: number | null = null;
  let section = '';
  const out: string[] = [];
  for (const line of config.split('\n')) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) section = header[1].toLowerCase();
    const pair = /^\s*([A-Za-z]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (section === 'interface' && pair && WG_QUICK_ONLY.has(pair[1].toLowerCase())) {
      const key = pair[1].toLowerCase();
      if (key === 'address')
        addresses.push(
          ...pair[2]
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean),
        );
      if (key === 'mtu') mtu = Number(pair[2]);
      continue;
    }
    // Comments and blank lines are left out, as wg-quick strip does.
    if (/^\s*(#|$)/.test(line)) continue;
    out.push(line);
  }
  return { config: `${out.join('\n')}\n`, addresses, mtu };
}

/**
 * Writes a bundle's artefacts to `dir`, each atomically (temporary file + rename), the WireGuard one with the
 * private key substituted and mode 0600, `bundle.json` last. Answers the paths and the keyed WireGuard text.
 */
export async function writeArtefacts(dir: string, bundle: GwBundle, privateKey: string) {
  const paths = artefactPaths(dir);
  const wireguard = withPrivateKey(bundle.artefacts.wireguard, privateKey);
  await writeFileAtomic(paths.wireguard, wireguard, 0o600);
  await writeFileAtomic(paths.nftables, bundle.artefacts.nftables);
  await writeFileAtomic(paths.rpz, bundle.artefacts.rpz);
  await writeFileAtomic(paths.squid, bundle.artefacts.squid);
  await writeFileAtomic(paths.ztna, bundle.artefacts.ztna ?? '');
  await writeFileAtomic(paths.local, bundle.artefacts.local?.nftables ?? '');
  await writeFileAtomic(paths.localRpz, bundle.artefacts.local?.rpz ?? '');
  await writeFileAtomic(paths.site, bundle.artefacts.site?.nftables ?? '');
  await writeFileAtomic(paths.siteInterfaces, bundle.artefacts.site?.interfaces ?? '');
  await writeFileAtomic(paths.bundle, `${JSON.stringify(bundle, null, 2)}\n`);
  return { paths, wireguard };
}

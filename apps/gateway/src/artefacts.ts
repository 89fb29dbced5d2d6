import { join } from 'node:path';
import {
  BLOCK_PAGE_ADDRESS_PLACEHOLDER,
  BLOCK_PAGE_URL_PLACEHOLDER,
  type GwBundle,
  isIpv4,
  parseIpOrCidr,
} from '@palisade/contracts';
import { PRIVATE_KEY_PLACEHOLDER } from '@palisade/gateway-config/wireguard';
import { writeFileAtomic } from './files';

/** The files a bundle is written to in the gateway's directory. */
export const ARTEFACT_FILES = {
  /** wg-quick format, with the gateway's private key (mode 0600). */
  wireguard: 'wireguard.conf',
  nftables: 'nftables.nft',
  rpz: 'rpz.zone',
  /** The zones of audiences of policies for some subjects (gateway-config audiences.ts); empty without any. */
  rpzAudiences: 'rpz-audiences.zones',
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
 * An RPZ text with the block-page answers (`A` {@link BLOCK_PAGE_ADDRESS_PLACEHOLDER}) pointing at `address`, the
 * gateway's own tunnel address, where its squid redirects plain HTTP to the console's block page. Unchanged when
 * the gateway has no IPv4 address (the placeholder is never routed: the name stays blocked).
 */
export function withBlockPageAddress(zone: string, address: string | undefined): string {
  if (address === undefined || !isIpv4(address)) return zone;
  const placeholder = BLOCK_PAGE_ADDRESS_PLACEHOLDER.replaceAll('.', '\\.');
  return zone.replace(new RegExp(`(\\sA\\s+)${placeholder}(?=[ \\t]*(;[^\\n]*)?$)`, 'gm'), `$1${address}`);
}

/**
 * The squid artefact with the console's address where its block-page redirects name the placeholder; without one
 * (an older server) the redirects stay unresolvable and squid answers them as the blocks they are.
 */
export function withBlockPageUrl(squid: string, publicUrl: string | undefined): string {
  if (!publicUrl || !/^https?:\/\/[A-Za-z0-9.\-[\]:]+(\/[A-Za-z0-9._~\-/]*)?$/.test(publicUrl)) return squid;
  return squid.replaceAll(`${BLOCK_PAGE_URL_PLACEHOLDER}/`, `${publicUrl.replace(/\/+$/, '')}/`);
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
  // The block-page answers of the zones: this gateway's own tunnel address (its squid answers there).
  const own = stripWgQuick(wireguard)
    .addresses.map((a) => parseIpOrCidr(a))
    .find((b) => b?.family === 4)?.host;
  await writeFileAtomic(paths.rpz, withBlockPageAddress(bundle.artefacts.rpz, own));
  await writeFileAtomic(paths.rpzAudiences, withBlockPageAddress(bundle.artefacts.rpzAudiences ?? '', own));
  await writeFileAtomic(paths.squid, withBlockPageUrl(bundle.artefacts.squid, bundle.blockPageUrl));
  await writeFileAtomic(paths.ztna, bundle.artefacts.ztna ?? '');
  await writeFileAtomic(paths.local, bundle.artefacts.local?.nftables ?? '');
  await writeFileAtomic(paths.localRpz, bundle.artefacts.local?.rpz ?? '');
  await writeFileAtomic(paths.site, bundle.artefacts.site?.nftables ?? '');
  await writeFileAtomic(paths.siteInterfaces, bundle.artefacts.site?.interfaces ?? '');
  await writeFileAtomic(paths.bundle, `${JSON.stringify(bundle, null, 2)}\n`);
  return { paths, wireguard };
}

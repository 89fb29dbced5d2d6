import { cidrContains, parseIpOrCidr, parseIpv4 } from '@palisade/contracts';

/**
 * What `--apply` needs to forward for its devices, worked out without touching the system (dataplane.ts runs it):
 * the networks the WireGuard peers are routed (their AllowedIPs, as wg-quick would route them), how the routes
 * on the interface must change, and the masquerading ruleset of the gateway's own nftables table.
 */

/** The gateway's NAT table: its own, so `table inet palisade` stays the policy generator's. */
export const NAT_TABLE = 'palisade_nat';

/**
 * A network in canonical form, either family (the contracts' address helper): host bits cleared and the prefix
 * always written (`100.64.0.2` → `100.64.0.2/32`, `10.99.0.7/24` → `10.99.0.0/24`, `FD00::1/64` → `fd00::/64`,
 * IPv6 compressed as RFC 5952 says, as `ip route` prints it); null when it is not an address or block.
 */
export function canonicalNetwork(text: string): string | null {
  const block = parseIpOrCidr(text.trim());
  return block === null ? null : `${block.address}/${block.prefix}`;
}

/** Every peer's AllowedIPs in a (`wg setconf` or wg-quick) configuration: canonical, each once, in order. */
export function peerAllowedIps(config: string): string[] {
  const out = new Set<string>();
  let section = '';
  for (const line of config.split('\n')) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) section = header[1].toLowerCase();
    const pair = /^\s*AllowedIPs\s*=\s*(.*?)\s*$/i.exec(line);
    if (section !== 'peer' || !pair) continue;
    for (const item of pair[1].split(',')) {
      const network = canonicalNetwork(item);
      if (network) out.add(network);
    }
  }
  return [...out];
}

const isDefault = (network: string) => network.endsWith('/0');

/**
 * The routes the interface needs: every peer network, except a default route (`/0`: wg-quick sends that through
 * a routing table of its own; a gateway does not route everything to a device) and the networks the interface's
 * own addresses already make on-link (the kernel's route is there). `skipped` names the default routes left out.
 */
export function wantedRoutes(
  allowedIps: readonly string[],
  interfaceAddresses: readonly string[],
): { routes: string[]; skipped: string[] } {
  const onLink = new Set(interfaceAddresses.map((a) => canonicalNetwork(a)).filter((a) => a !== null));
  const routes: string[] = [];
  const skipped: string[] = [];
  for (const text of allowedIps) {
    const network = canonicalNetwork(text);
    if (network === null || onLink.has(network) || routes.includes(network)) continue;
    if (isDefault(network)) skipped.push(network);
    else routes.push(network);
  }
  return { routes, skipped };
}

/** The changes that turn the routes there are (`have`) into the routes wanted: added and deleted, canonical. */
export function routeDiff(
  have: readonly string[],
  want: readonly string[],
): { add: string[]; del: string[] } {
  const canonical = (list: readonly string[]) =>
    [...new Set(list.map((r) => canonicalNetwork(r === 'default' ? '0.0.0.0/0' : r)))].filter(
      (r): r is string => r !== null,
    );
  const haveSet = new Set(canonical(have));
  const wantList = canonical(want);
  const wantSet = new Set(wantList);
  return {
    add: wantList.filter((r) => !haveSet.has(r)),
    del: [...haveSet].filter((r) => !wantSet.has(r)),
  };
}

/**
 * IPv4 networks without those another one of the list contains (CIDR blocks nest or are disjoint), sorted: an
 * nftables interval set refuses overlapping elements.
 */
export function outermostV4(networks: readonly string[]): string[] {
  const blocks = networks.flatMap((n) => {
    const block = parseIpOrCidr(n.trim());
    if (block?.family !== 4) return [];
    const text = `${block.address}/${block.prefix}`;
    return [{ text, value: parseIpv4(block.address) as number, prefix: block.prefix }];
  });
  const kept = blocks.filter(
    (b, i) =>
      !blocks.some((o, j) => j !== i && cidrContains(o.text, b.text) && (o.prefix < b.prefix || j < i)),
  );
  return [...new Set(kept.sort((a, b) => a.value - b.value || a.prefix - b.prefix).map((b) => b.text))];
}

const IFNAME = /^[A-Za-z0-9_.=-]{1,15}$/;

/**
 * The masquerading ruleset (`nft -f`): traffic from the tunnel networks (`sources`: the interface's networks and
 * the peers' networks, IPv4) leaving by another interface than the tunnel goes out with the address of that
 * interface, so what the devices reach needs no route back to them. Declared, deleted and declared again in one
 * transaction, like the policy table: loading it again replaces it atomically. No sources: the chain is empty.
 */
export function natRuleset(options: { interfaceName: string; sources: readonly string[] }): string {
  if (!IFNAME.test(options.interfaceName)) throw new Error(`interface name "${options.interfaceName}"`);
  const sources = outermostV4(options.sources.filter((n) => !isDefault(canonicalNetwork(n) ?? '')));
  const lines = [
    '#!/usr/sbin/nft -f',
    `# Palisade gateway: masquerades what the devices of ${options.interfaceName} send through it. Generated.`,
    `table ip ${NAT_TABLE} {}`,
    `delete table ip ${NAT_TABLE}`,
    `table ip ${NAT_TABLE} {`,
    '\tchain postrouting {',
    '\t\ttype nat hook postrouting priority srcnat; policy accept;',
  ];
  if (sources.length > 0) {
    lines.push(
      `\t\tip saddr { ${sources.join(', ')} } oifname != "${options.interfaceName}" counter masquerade comment "tunnel to the networks behind the gateway"`,
    );
  }
  lines.push('\t}', '}', '');
  return lines.join('\n');
}

/**
 * Who is behind which tunnel address, compiled into what each artefact needs: the source addresses of every
 * subject a policy names (nftables sets, squid `src` ACLs) and, for the DNS layer, one RPZ zone per audience.
 *
 * An audience is the set of devices the same policies for some subjects apply to (with a rule on the DNS layer):
 * they see the same zone — the policies for everyone plus those — so one zone serves them all, and devices no
 * such policy names see the zone for everyone. Unbound binds each zone to its clients with tags: every client
 * block it answers is tagged `e` (the zone for everyone), each audience's device addresses (/32) carry the
 * audience's own tag instead (the most specific block wins), and every `rpz:` clause lists the tags it serves.
 * So a device meets exactly one zone, built with the engine's order for it (rpz.ts).
 *
 * On the wire the audiences are one text artefact (`rpzAudiences`): zones one after another, each headed by
 * `; audience <tag> <origin> clients <address,…>` — line-based like the other artefacts, so versions hash,
 * diff and travel alike.
 */

import { createHash } from 'node:crypto';
import type { EngineInput } from '@palisade/policy-engine';
import { appliesTo, type Generated, rulesOf, type Skipped } from './common';
import type { SubjectAddresses } from './nftables';
import { rpzZone } from './rpz';

/** A device's tunnel address and who is behind it (the bundle's `identities`). */
export interface TunnelIdentity {
  address: string;
  deviceId: string;
  userId: string | null;
  groups: string[];
}

/** The tag of the zone for everyone in Unbound's configuration. */
export const EVERYONE_TAG = 'e';

export interface RpzAudience {
  /** An Unbound tag: `a` and 12 hex digits of the audience's policies, stable while they are. */
  tag: string;
  /** The zone's name: `<tag>.rpz.palisade.`. */
  origin: string;
  /** The devices' tunnel addresses (no prefix). */
  clients: string[];
  /** The zone's text. */
  zone: string;
}

/** The tunnel addresses of each user's, group's and device's devices. */
export function subjectAddressesOf(identities: readonly TunnelIdentity[]): SubjectAddresses {
  const users: Record<string, string[]> = {};
  const groups: Record<string, string[]> = {};
  const devices: Record<string, string[]> = {};
  const push = (into: Record<string, string[]>, key: string, address: string) => {
    const list = into[key] ?? [];
    into[key] = list;
    if (!list.includes(address)) list.push(address);
  };
  for (const id of identities) {
    push(devices, id.deviceId, id.address);
    if (id.userId) push(users, id.userId, id.address);
    for (const g of id.groups) push(groups, g, id.address);
  }
  for (const map of [users, groups, devices]) for (const list of Object.values(map)) list.sort();
  return { users, groups, devices };
}

/**
 * One RPZ zone per audience (see the module's comment), and the skip entries of the DNS layer as the zones
 * together enforce it: a rule of a policy for some subjects is skipped only when no device it applies to exists.
 */
export function rpzAudiences(
  input: EngineInput,
  identities: readonly TunnelIdentity[],
  options: { serial: number; at?: number; blockPageAddress?: string },
): { audiences: RpzAudience[]; skipped: Skipped[] } {
  const scoped = rulesOf(input, 'dns').filter((r) => !r.policy.everyone);
  const byKey = new Map<string, TunnelIdentity[]>();
  const reached = new Set<string>();
  for (const id of identities) {
    const subject = { userId: id.userId, deviceId: id.deviceId, groups: id.groups };
    const policies = [...new Set(scoped.filter((r) => appliesTo(r, subject)).map((r) => r.policy.id))].sort();
    if (policies.length === 0) continue;
    for (const p of policies) reached.add(p);
    const key = policies.join('\n');
    const list = byKey.get(key) ?? [];
    byKey.set(key, list);
    list.push(id);
  }
  const audiences: RpzAudience[] = [];
  const skipped = new Map<string, Skipped>();
  for (const [key, members] of [...byKey].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const tag = `a${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
    const origin = `${tag}.rpz.palisade.`;
    const first = members[0] as TunnelIdentity;
    const zone: Generated = rpzZone(input, {
      serial: options.serial,
      origin,
      at: options.at,
      blockPageAddress: options.blockPageAddress,
      subject: { userId: first.userId, deviceId: first.deviceId, groups: first.groups },
    });
    for (const s of zone.skipped) skipped.set(JSON.stringify(s), s);
    audiences.push({
      tag,
      origin,
      clients: [...new Set(members.map((m) => m.address))].sort(),
      zone: zone.text,
    });
  }
  for (const r of scoped) {
    if (reached.has(r.policy.id)) continue;
    const s: Skipped = {
      policyId: r.policy.id,
      ruleId: r.ref.ruleId,
      item: '',
      reason: 'no-subject-addresses',
    };
    skipped.set(JSON.stringify(s), s);
  }
  return { audiences, skipped: [...skipped.values()] };
}

const HEADER = /^; audience (a[0-9a-f]{12}) (\S+) clients (\S*)$/;

/** The audiences as one text artefact (see the module's comment). */
export function audiencesText(audiences: readonly RpzAudience[]): string {
  return audiences
    .map(
      (a) =>
        `; audience ${a.tag} ${a.origin} clients ${a.clients.join(',')}\n${a.zone.replace(/\n?$/, '\n')}`,
    )
    .join('');
}

/** Reads the text artefact back; a malformed header is an error (the gateway then keeps its last good state). */
export function parseAudiences(text: string): RpzAudience[] {
  const out: RpzAudience[] = [];
  let current: RpzAudience | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('; audience ')) {
      const m = HEADER.exec(line);
      if (!m) throw new Error(`rpz audiences: malformed header: ${line.slice(0, 120)}`);
      current = {
        tag: m[1] as string,
        origin: m[2] as string,
        clients: (m[3] as string).split(',').filter(Boolean),
        zone: '',
      };
      out.push(current);
    } else if (current) {
      current.zone += `${line}\n`;
    } else if (line.trim() !== '') {
      throw new Error('rpz audiences: text before the first header');
    }
  }
  for (const a of out) a.zone = a.zone.replace(/\n+$/, '\n');
  return out;
}

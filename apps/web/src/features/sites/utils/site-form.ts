import type { UseFormReturnType } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import {
  MAX_GATEWAY_WAN_IPS,
  MAX_LAN_IDS,
  type SiteConfig,
  SiteConfigForm,
  type SiteConfigInput,
  type SiteConfigView,
} from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { messageKey } from '../../../lib/form-errors';

/**
 * The site configuration as the form edits it, and the way back. Inputs hold what the administrator typed: a
 * number field is a number or, while empty or half typed, a string (Mantine's NumberInput); a select holds the
 * option's string. Each row has a `key` of its own so React keeps a row's inputs when an earlier row is removed.
 * Field paths are the contract's (`lans.0.address`, `wan.ips.0.prefix`), so the form, the contract's issues and
 * the server's `details` name a field the same way.
 */

/** A number input's value: a number, or text while it is empty or not a number yet. */
export type NumberValue = number | string;

export interface LanRow {
  key: string;
  /** The LAN port, `'1'` … `'10'`. */
  id: string;
  name: string;
  address: string;
  prefix: NumberValue;
  lanDhcp: boolean;
  dhcpStart: string;
  dhcpEnd: string;
}

export interface VlanRow {
  key: string;
  vlanId: NumberValue;
  name: string;
  /** The parent LAN's id, `'1'` … `'10'`; null until one is chosen. */
  lanId: string | null;
  address: string;
  prefix: NumberValue;
}

export interface WanValues {
  mode: 'dhcp' | 'static';
  /** Always one entry in the form (the static address); sent only when the mode is static. */
  ips: { address: string; prefix: NumberValue }[];
  gateway: string;
  dns: string[];
}

export interface PortForwardRow {
  key: string;
  name: string;
  protocol: 'tcp' | 'udp';
  ports: string;
  ip: string;
  /** Empty: each external port is kept. */
  toPort: NumberValue;
  source: string;
}

export interface TrafficFlowRow {
  key: string;
  name: string;
  lanId: string | null;
  via: 'wan' | 'tunnel';
  destination: string;
}

export interface SiteFormValues {
  lans: LanRow[];
  vlans: VlanRow[];
  wan: WanValues;
  portForwards: PortForwardRow[];
  trafficFlows: TrafficFlowRow[];
}

/** The prefix a new LAN, VLAN or static WAN starts with. */
export const DEFAULT_PREFIX = 24;

/** The configuration of a view or a saved answer as form values. */
export function toFormValues(config: SiteConfig | SiteConfigView): SiteFormValues {
  const ip = config.wan.ips[0];
  return {
    lans: config.lans.map((lan) => ({
      key: randomId(),
      id: String(lan.id),
      name: lan.name,
      address: lan.address,
      prefix: lan.prefix,
      lanDhcp: lan.lanDhcp,
      dhcpStart: lan.dhcpStart ?? '',
      dhcpEnd: lan.dhcpEnd ?? '',
    })),
    vlans: config.vlans.map((vlan) => ({
      key: randomId(),
      vlanId: vlan.vlanId,
      name: vlan.name,
      lanId: String(vlan.lanId),
      address: vlan.address,
      prefix: vlan.prefix,
    })),
    wan: {
      mode: config.wan.mode,
      ips: [ip ? { address: ip.address, prefix: ip.prefix } : { address: '', prefix: DEFAULT_PREFIX }],
      gateway: config.wan.gateway ?? '',
      dns: [...config.wan.dns],
    },
    portForwards: config.portForwards.map((forward) => ({
      key: randomId(),
      name: forward.name,
      protocol: forward.protocol,
      ports: forward.ports,
      ip: forward.ip,
      toPort: forward.toPort ?? '',
      source: forward.source,
    })),
    trafficFlows: config.trafficFlows.map((flow) => ({
      key: randomId(),
      name: flow.name,
      lanId: String(flow.lanId),
      via: flow.via,
      destination: flow.destination,
    })),
  };
}

/** The configuration of a view, without what the view says beside it (for a PUT of the same configuration). */
export function configOf(view: SiteConfigView): SiteConfigInput {
  const { lans, vlans, wan, portForwards, trafficFlows } = view;
  return { lans, vlans, wan, portForwards, trafficFlows };
}

/** A number field as the contract takes it: empty is "not given", text that is no number stays text (refused). */
function numberOf(value: NumberValue | null): number | string | undefined {
  if (value === null) return undefined;
  if (typeof value === 'number') return value;
  const text = value.trim();
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isNaN(n) ? text : n;
}

/** An optional text field: empty is "not given". */
const textOf = (value: string) => (value.trim() === '' ? undefined : value);

/**
 * The form values as the contract's input (unchecked: what the administrator typed, for {@link SiteConfigForm}
 * to judge). The DHCP range of a LAN without DHCP and the static WAN fields of a DHCP WAN are left out.
 */
export function toConfigInput(values: SiteFormValues): unknown {
  const { wan } = values;
  return {
    lans: values.lans.map((lan) => ({
      id: numberOf(lan.id),
      name: lan.name,
      address: lan.address,
      prefix: numberOf(lan.prefix),
      lanDhcp: lan.lanDhcp,
      ...(lan.lanDhcp ? { dhcpStart: textOf(lan.dhcpStart), dhcpEnd: textOf(lan.dhcpEnd) } : {}),
    })),
    vlans: values.vlans.map((vlan) => ({
      vlanId: numberOf(vlan.vlanId),
      name: vlan.name,
      lanId: numberOf(vlan.lanId),
      address: vlan.address,
      prefix: numberOf(vlan.prefix),
    })),
    wan:
      wan.mode === 'static'
        ? {
            mode: 'static',
            ips: wan.ips
              .slice(0, MAX_GATEWAY_WAN_IPS)
              .map((ip) => ({ address: ip.address, prefix: numberOf(ip.prefix) })),
            gateway: textOf(wan.gateway),
            dns: wan.dns,
          }
        : { mode: 'dhcp', ips: [], dns: wan.dns },
    portForwards: values.portForwards.map((forward) => ({
      name: forward.name,
      protocol: forward.protocol,
      ports: forward.ports,
      ip: forward.ip,
      toPort: numberOf(forward.toPort),
      source: forward.source,
    })),
    trafficFlows: values.trafficFlows.map((flow) => ({
      name: flow.name,
      lanId: numberOf(flow.lanId),
      via: flow.via,
      destination: flow.destination,
    })),
  };
}

/** What checking the form gives: the configuration to send, or the translated message of each field. */
export type SiteFormCheck =
  | { config: SiteConfig; errors: null }
  | { config: null; errors: Record<string, string> };

/**
 * Checks the form with the contract's {@link SiteConfigForm} (every field, every check across rows, the port
 * forwards' clashes). Each field gets the translated message of its first issue, with the issue's `params` as
 * the message's values: the ip/source duplicate names the ip and both sources.
 */
export function checkSiteForm(values: SiteFormValues, t: TFunction): SiteFormCheck {
  const result = SiteConfigForm.safeParse(toConfigInput(values));
  if (result.success) return { config: result.data, errors: null };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.');
    if (errors[field] !== undefined) continue;
    const params = 'params' in issue && issue.params ? (issue.params as Record<string, unknown>) : {};
    errors[field] = t(messageKey(issue.message, issue.code), {
      ...params,
      defaultValue: t('validation.invalid', 'This value is not valid.'),
    });
  }
  return { config: null, errors };
}

/** The tabs of the configuration, in order. */
export const SITE_TABS = ['lans', 'vlans', 'wan', 'portForwards', 'trafficFlows'] as const;
export type SiteTab = (typeof SITE_TABS)[number];

/** Whether a field path names a field of the form (`portForwards.2.ip`), not something beside it (`id`). */
export function isFormField(field: string): boolean {
  return (SITE_TABS as readonly string[]).includes(field.split('.')[0]);
}

/** The tab that holds a field (`vlans.2.lanId` → `vlans`); the first tab for a problem of the whole form. */
export function tabOfField(field: string): SiteTab {
  const head = field.split('.')[0];
  return (SITE_TABS as readonly string[]).includes(head) ? (head as SiteTab) : 'lans';
}

/** How many errors each tab has. */
export function errorsPerTab(errors: Record<string, unknown>): Record<SiteTab, number> {
  const counts: Record<SiteTab, number> = { lans: 0, vlans: 0, wan: 0, portForwards: 0, trafficFlows: 0 };
  for (const field of Object.keys(errors)) counts[tabOfField(field)] += 1;
  return counts;
}

/** The field to show first: the first error of the first tab that has one. */
export function firstErrorField(errors: Record<string, unknown>): string | null {
  const fields = Object.keys(errors);
  for (const tab of SITE_TABS) {
    const field = fields.find((candidate) => tabOfField(candidate) === tab);
    if (field) return field;
  }
  return null;
}

/** The LAN ports no row uses yet, lowest first. */
export function freeLanIds(lans: readonly Pick<LanRow, 'id'>[]): number[] {
  const used = new Set(lans.map((lan) => lan.id));
  return Array.from({ length: MAX_LAN_IDS }, (_, i) => i + 1).filter((id) => !used.has(String(id)));
}

/** A new LAN row on the lowest free LAN port. */
export function newLanRow(lans: readonly Pick<LanRow, 'id'>[]): LanRow {
  const [id = 1] = freeLanIds(lans);
  return {
    key: randomId(),
    id: String(id),
    name: '',
    address: '',
    prefix: DEFAULT_PREFIX,
    lanDhcp: false,
    dhcpStart: '',
    dhcpEnd: '',
  };
}

/** A new VLAN row on the first LAN. */
export function newVlanRow(lans: readonly Pick<LanRow, 'id'>[]): VlanRow {
  return {
    key: randomId(),
    vlanId: '',
    name: '',
    lanId: lans[0]?.id ?? null,
    address: '',
    prefix: DEFAULT_PREFIX,
  };
}

/** A new port forward: TCP, from anywhere. */
export function newPortForwardRow(): PortForwardRow {
  return { key: randomId(), name: '', protocol: 'tcp', ports: '', ip: '', toPort: '', source: 'any' };
}

/** A new traffic flow of the first LAN, through the tunnel. */
export function newTrafficFlowRow(lans: readonly Pick<LanRow, 'id'>[]): TrafficFlowRow {
  return { key: randomId(), name: '', lanId: lans[0]?.id ?? null, via: 'tunnel', destination: '' };
}

/** The form of a site configuration, as the tab panels receive it. */
export type SiteForm = UseFormReturnType<SiteFormValues>;

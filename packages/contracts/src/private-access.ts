import { z } from 'zod';
import { NonEmpty, Ok, Uuid } from './common';
import { endpoint } from './endpoint';
import { isIpOrCidr, isIpv4 } from './ip';
import { TenantParams } from './tenants';
import { isValidPortList } from './validators';

/**
 * Private access through site gateways (issue 11, `/devices/spa/service` and `/devices/ztna-firewall`), as
 * Firezone's resources and NetBird's network routes with access control do it:
 * - a **private service** publishes one internal host's ports behind a site gateway to some users and groups;
 * - a **ZTNA firewall rule** lets some users and groups reach an internal host or network behind a site gateway
 *   (some ports or all).
 * The hosts they name are guarded at the site gateway: a connection from the tunnel reaches a guarded host only
 * when a service or rule allows its device's user (compiled to nftables, `table inet palisade_ztna`); the users'
 * devices get the host or network in their AllowedIPs towards that gateway. Disabled entries allow nothing and
 * guard nothing.
 */

export const PRIVATE_SERVICE_PROTOCOLS = ['tcp', 'udp'] as const;
export const ZTNA_RULE_PROTOCOLS = ['tcp', 'udp', 'any'] as const;
/** How many users and groups one entry names. */
export const MAX_AUDIENCE = 500;

// IPv4 only by design: the guarded hosts are an nftables `ipv4_addr` set at the site gateway, behind its IPv4 LANs.
const Ipv4 = z.string().trim().refine(isIpv4, { message: 'validation.ip' });
const Ipv4OrCidr = z
  .string()
  .trim()
  .refine((s) => isIpOrCidr(s, 4), { message: 'validation.ipOrCidr' });
const Ports = z.string().trim().refine(isValidPortList, { message: 'validation.portList' });

const Audience = {
  userIds: z.array(Uuid).max(MAX_AUDIENCE).default([]),
  groupIds: z.array(Uuid).max(MAX_AUDIENCE).default([]),
};
const Named = z.object({ id: z.string(), name: z.string() });

export const PrivateService = z.object({
  id: z.string(),
  name: z.string(),
  gatewayId: z.string(),
  gatewayName: z.string(),
  address: z.string(),
  protocol: z.enum(PRIVATE_SERVICE_PROTOCOLS),
  ports: z.string(),
  users: z.array(Named),
  groups: z.array(Named),
  enabled: z.boolean(),
  updatedAt: z.string(),
});
export type PrivateService = z.infer<typeof PrivateService>;

export const PrivateServiceInput = z.object({
  name: NonEmpty(64),
  gatewayId: Uuid,
  address: Ipv4,
  protocol: z.enum(PRIVATE_SERVICE_PROTOCOLS).default('tcp'),
  ports: Ports,
  ...Audience,
  enabled: z.boolean().default(true),
});
export type PrivateServiceInput = z.input<typeof PrivateServiceInput>;

export const ZtnaRule = z.object({
  id: z.string(),
  name: z.string(),
  gatewayId: z.string(),
  gatewayName: z.string(),
  destination: z.string(),
  protocol: z.enum(ZTNA_RULE_PROTOCOLS),
  /** Null: every port. */
  ports: z.string().nullable(),
  users: z.array(Named),
  groups: z.array(Named),
  enabled: z.boolean(),
  updatedAt: z.string(),
});
export type ZtnaRule = z.infer<typeof ZtnaRule>;

export const ZtnaRuleInput = z
  .object({
    name: NonEmpty(64),
    gatewayId: Uuid,
    destination: Ipv4OrCidr,
    protocol: z.enum(ZTNA_RULE_PROTOCOLS).default('tcp'),
    ports: Ports.nullable().default(null),
    ...Audience,
    enabled: z.boolean().default(true),
  })
  .superRefine((input, ctx) => {
    // Ports belong to TCP or UDP: "any" protocol means every port.
    if (input.protocol === 'any' && input.ports !== null)
      ctx.addIssue({ code: 'custom', path: ['ports'], message: 'validation.portsNeedProtocol' });
  });
export type ZtnaRuleInput = z.input<typeof ZtnaRuleInput>;

const EntryParams = TenantParams.extend({ id: Uuid });

export const privateAccessEndpoints = {
  listPrivateServices: endpoint({
    method: 'GET',
    path: '/devices/:tenant/spa/services',
    access: 'gateways:view',
    summary: 'The private services published behind the tenant’s site gateways',
    tags: ['private access'],
    params: TenantParams,
    response: z.object({ items: z.array(PrivateService) }),
  }),
  createPrivateService: endpoint({
    method: 'POST',
    path: '/devices/:tenant/spa/services',
    access: 'gateways:create',
    summary: 'Publish an internal host’s ports behind a site gateway to some users and groups',
    tags: ['private access'],
    params: TenantParams,
    body: PrivateServiceInput,
    response: PrivateService,
    status: 201,
  }),
  updatePrivateService: endpoint({
    method: 'PUT',
    path: '/devices/:tenant/spa/services/:id',
    access: 'gateways:update',
    summary: 'Change a private service',
    tags: ['private access'],
    params: EntryParams,
    body: PrivateServiceInput,
    response: PrivateService,
  }),
  deletePrivateService: endpoint({
    method: 'DELETE',
    path: '/devices/:tenant/spa/services/:id',
    access: 'gateways:delete',
    summary: 'Stop publishing a private service',
    tags: ['private access'],
    params: EntryParams,
    response: Ok,
  }),
  listZtnaRules: endpoint({
    method: 'GET',
    path: '/devices/:tenant/ztna-firewall',
    access: 'gateways:view',
    feature: 'ztnaFirewall',
    summary: 'The ZTNA firewall rules of the tenant’s site gateways',
    tags: ['private access'],
    params: TenantParams,
    response: z.object({ items: z.array(ZtnaRule) }),
  }),
  createZtnaRule: endpoint({
    method: 'POST',
    path: '/devices/:tenant/ztna-firewall',
    access: 'gateways:create',
    feature: 'ztnaFirewall',
    summary: 'Let some users and groups reach an internal host or network behind a site gateway',
    tags: ['private access'],
    params: TenantParams,
    body: ZtnaRuleInput,
    response: ZtnaRule,
    status: 201,
  }),
  updateZtnaRule: endpoint({
    method: 'PUT',
    path: '/devices/:tenant/ztna-firewall/:id',
    access: 'gateways:update',
    feature: 'ztnaFirewall',
    summary: 'Change a ZTNA firewall rule',
    tags: ['private access'],
    params: EntryParams,
    body: ZtnaRuleInput,
    response: ZtnaRule,
  }),
  deleteZtnaRule: endpoint({
    method: 'DELETE',
    path: '/devices/:tenant/ztna-firewall/:id',
    access: 'gateways:delete',
    feature: 'ztnaFirewall',
    summary: 'Delete a ZTNA firewall rule',
    tags: ['private access'],
    params: EntryParams,
    response: Ok,
  }),
};

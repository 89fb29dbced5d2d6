import { z } from 'zod';
import { Uuid } from './common';
import { MAX_LOCAL_POLICIES } from './constants';
import { endpoint } from './endpoint';
import { POLICY_TYPES } from './policies';
import { CountryCode } from './policy-objects';
import { TenantParams } from './tenants';

/**
 * What a site gateway enforces locally for the hosts of its own LANs and VLANs (issue 11), without a tunnel to a
 * cybernode — the spec's `/devices/local-policies` (at most {@link MAX_LOCAL_POLICIES} of the tenant's policies),
 * `/devices/cgw-categories` (web categories blocked), `/devices/local-geo-controls` (countries blocked) and
 * `/devices/malicious-sites` (threat-intelligence feeds blocked). The gateway's bundle carries them as `local`:
 * an nftables table `palisade_local` deciding connections from its LANs, and an RPZ zone `rpz-local.palisade.`
 * for its LANs' DNS — compiled by the same engine and generators as the tenant's policy, from the tenant's
 * objects (categories, feeds, GeoIP).
 */

export const LocalControls = z.object({
  /** Tenant policies the gateway enforces for its LANs, in the tenant's precedence order. */
  policyIds: z
    .array(Uuid)
    .max(MAX_LOCAL_POLICIES, { message: 'validation.maxLocalPolicies' })
    .refine((ids) => new Set(ids).size === ids.length, { message: 'validation.duplicate' })
    .default([]),
  /** Web category ids whose domains the LANs cannot resolve. */
  categories: z.array(z.string().trim().min(1).max(100)).max(200).default([]),
  /** Countries the LANs cannot connect to or be reached from. */
  countries: z.array(CountryCode).max(250).default([]),
  /** Threat-intelligence feed ids whose domains and addresses the LANs cannot reach. */
  feeds: z.array(z.string().trim().min(1).max(100)).max(100).default([]),
});
export type LocalControls = z.infer<typeof LocalControls>;
export type LocalControlsInput = z.input<typeof LocalControls>;

export const LocalControlsView = LocalControls.extend({
  gatewayId: z.string(),
  name: z.string(),
  /** The chosen policies as they stand now (a deleted one is dropped from the list). */
  policies: z.array(
    z.object({ id: z.string(), name: z.string(), type: z.enum(POLICY_TYPES), enabled: z.boolean() }),
  ),
  updatedAt: z.string().nullable(),
});
export type LocalControlsView = z.infer<typeof LocalControlsView>;

const GatewayParams = TenantParams.extend({ id: Uuid });

export const localControlsEndpoints = {
  listLocalControls: endpoint({
    method: 'GET',
    path: '/devices/:tenant/local-controls',
    access: 'gateways:view',
    summary: "Every site gateway's local controls: policies, categories, countries and feeds for its LANs",
    tags: ['gateways'],
    params: TenantParams,
    response: z.object({ items: z.array(LocalControlsView) }),
  }),
  getLocalControls: endpoint({
    method: 'GET',
    path: '/devices/:tenant/:id/local-controls',
    access: 'gateways:view',
    summary: "One site gateway's local controls",
    tags: ['gateways'],
    params: GatewayParams,
    response: LocalControlsView,
  }),
  putLocalControls: endpoint({
    method: 'PUT',
    path: '/devices/:tenant/:id/local-controls',
    access: 'gateways:update',
    summary: "Replace a site gateway's local controls; it receives them with its next bundle",
    tags: ['gateways'],
    params: GatewayParams,
    body: LocalControls,
    response: LocalControlsView,
  }),
};

import type { PolicyRule } from '@palisade/contracts';
import type { EnginePolicy } from '@palisade/policy-engine/types';
import type { Tx } from '../../db/client';
import * as repo from './block-page.repository';

// What policy-core reads of this module's state: the approved access requests, as system policies allowing their
// host for their user until they expire. Only policy-core imports this file (the lint says so).

/**
 * Where approvals sit in the engine's one order: after threat intelligence (-2 000 000: malware stays blocked
 * whatever was approved) and before blocked apps and every policy of the tenant, so an approval allows what a
 * tenant block would otherwise block, for its user only.
 */
export const APPROVAL_PRECEDENCE = -1_500_000;

/** The id of an approval's system policy, and the name the web translates. */
export const approvalPolicyId = (requestId: string) => `system-access-${requestId}`;
export const APPROVAL_POLICY_NAME = 'system:accessApproval';

function allowRule(id: string, type: PolicyRule['type'], host: string): PolicyRule {
  return {
    id,
    name: 'Approved access request',
    type,
    url: host,
    action: 'allow',
    target: '',
    ports: '',
    categories: [],
    feeds: [],
    locations: [],
    schedule: null,
    enabled: true,
    issysgen: true,
  };
}

/**
 * The tenant's approvals in force at `now`: per approval one system policy for the user behind the request (or,
 * without one, its device) allowing the host in the DNS layer (`dmn`) and the HTTP layer (`SQUID_DMN`, which
 * comes before URL, keyword and file-extension rules of the host). An expired approval is left out at once; the
 * sweep (block-page.service.ts) marks it and bumps the policy version so gateways drop it too.
 */
export async function loadAccessApprovals(
  tx: Tx,
  tenantId: string,
  now = new Date(),
): Promise<EnginePolicy[]> {
  const rows = await repo.activeApprovals(tx, tenantId, now);
  return rows
    .filter((row) => row.userId || row.deviceId)
    .map((row, i) => ({
      id: approvalPolicyId(row.id),
      name: APPROVAL_POLICY_NAME,
      type: 'other',
      enabled: true,
      precedence: APPROVAL_PRECEDENCE + i,
      system: true,
      rules: [
        allowRule(`${approvalPolicyId(row.id)}-dns`, 'dmn', row.host),
        allowRule(`${approvalPolicyId(row.id)}-http`, 'SQUID_DMN', row.host),
      ],
      appliesTo: row.userId
        ? { users: [row.userId], groups: [], devices: [] }
        : { users: [], groups: [], devices: [row.deviceId as string] },
    }));
}

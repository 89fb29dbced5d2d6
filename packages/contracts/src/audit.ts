import { USER_BULK_JOB_ACTIONS, type UserBulkJobAction } from './user-bulk';

/**
 * Every action the admin event log records. The server's `recordEvent` takes only these, so a new action is
 * added here first — and the web's label test then asks for its English and German label
 * (`audit.actions.<action>` in the translation catalogues; the dots nest).
 */
export const AUDIT_ACTIONS = [
  'account.password.change',
  'admin.invite',
  'admin.suspend',
  'admin.reinstate',
  'admin.remove',
  'api_token.create',
  'api_token.revoke',
  'embed_link.create',
  'embed_link.revoke',
  'device.enrol',
  'device.delete',
  'device.update',
  'device.approve',
  'device.disable',
  'device.enable',
  'device.move',
  'device.key.expire',
  'device.key.rotate',
  'device.config.download',
  'device.settings.update',
  'enrolment.key.create',
  'enrolment.key.revoke',
  'enrolment.link.create',
  'enrolment.link.revoke',
  'gateway.create',
  'gateway.update',
  'gateway.retire',
  'gateway.rotate',
  'gateway.upgrade',
  'gateway.enrol',
  'gateway.rollback',
  'gateway.siteConfig',
  'gateway.localControls',
  'privateService.create',
  'privateService.update',
  'privateService.delete',
  'ztnaRule.create',
  'ztnaRule.update',
  'ztnaRule.delete',
  'mesh.update',
  'internalDevice.forget',
  'report.schedule.create',
  'report.schedule.update',
  'report.schedule.delete',
  'report.schedule.send',
  'report.recipient.resend',
  'report.recipient.confirm',
  'group.create',
  'group.copy',
  'group.update',
  'group.delete',
  'group.import',
  'group.members.add',
  'group.members.remove',
  'policy.create',
  'policy.update',
  'policy.enable',
  'policy.disable',
  'policy.copy',
  'policy.reorder',
  'policy.delete',
  'policy.app.create',
  'policy.app.update',
  'policy.app.delete',
  'policy.blockedApps.update',
  'policy.category.action',
  'policy.category.create',
  'policy.category.update',
  'policy.category.delete',
  'policy.feed.create',
  'policy.feed.update',
  'policy.feed.refresh',
  'policy.feed.delete',
  'policy.accessRequest.create',
  'policy.accessRequest.approve',
  'policy.accessRequest.decline',
  'policy.accessRequest.expire',
  'policy.geo.update',
  'policy.location.create',
  'policy.location.update',
  'policy.location.delete',
  'policyGroup.create',
  'policyGroup.update',
  'policyGroup.delete',
  'policy.template.create',
  'policy.template.update',
  'policy.template.delete',
  'policy.template.apply',
  'policyTest.create',
  'policyTest.update',
  'policyTest.delete',
  'role.create',
  'role.update',
  'role.delete',
  'role.assign',
  'subscription.start',
  'subscription.update',
  'subscription.cancel',
  'subscription.resume',
  'subscription.paymentMethod.update',
  'tenant.create',
  'tenant.suspend',
  'tenant.resume',
  'tenant.move',
  'tenant.update',
  'tenant.eventRetention.update',
  'tenant.features.update',
  'tenant.configurations.update',
  'tenant.delete',
  'tenant.restore',
  'tenant.purge',
  'partner.settings.update',
  'partner.logo.update',
  'user.create',
  'user.update',
  'user.delete',
  'user.disable',
  'user.enable',
  'user.import',
  ...USER_BULK_JOB_ACTIONS.map((action): `user.bulk.${UserBulkJobAction}` => `user.bulk.${action}`),
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an event is about (`objectType`); labelled as `audit.objectTypes.<type>`. */
export const AUDIT_OBJECT_TYPES = [
  'accessRequest',
  'api_token',
  'app',
  'blockedApps',
  'category',
  'deployment_key',
  'device',
  'embed_link',
  'enrolment_link',
  'feed',
  'gateway',
  'geo',
  'group',
  'import',
  'internalDevice',
  'location',
  'mesh',
  'policy',
  'policyGroup',
  'policyList',
  'policyTest',
  'policyTemplate',
  'privateService',
  'reportRecipient',
  'reportSchedule',
  'role',
  'subscription',
  'tenant',
  'user',
  'ztnaRule',
] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

/** The area of an action: what comes before its first dot (`policy` for `policy.feed.create`). */
export type AuditArea = AuditAction extends `${infer Area}.${string}` ? Area : never;

/** The area of an action, or of any recorded action string (`custom` for `custom.thing`). */
export function auditArea(action: string): string {
  const dot = action.indexOf('.');
  return dot === -1 ? action : action.slice(0, dot);
}

/** Every area, for the "all actions of" filter choices; labelled as `audit.areas.<area>`. */
export const AUDIT_AREAS = [...new Set(AUDIT_ACTIONS.map(auditArea))] as AuditArea[];

/** The events whose object is a number of users or groups (a bulk change, an import), and what they count. */
const COUNTED: Array<{ matches: (action: string) => boolean; noun: AuditCountNoun }> = [
  { matches: (action) => action.startsWith('user.bulk.') || action === 'user.import', noun: 'user' },
  { matches: (action) => action === 'group.import', noun: 'group' },
];
export type AuditCountNoun = 'user' | 'group';

/**
 * The object name of an event about `count` users or groups, as stored (English, for the CSV export and the
 * search): `1 user`, `2 users`. Screens do not show it as stored but through {@link auditCount}, in the reader's
 * language and plural rules.
 */
export function auditCountName(count: number, noun: AuditCountNoun): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * How many users or groups an event is about, read back from its object name (also from events recorded
 * before {@link auditCountName}, as `1 users`); null for any other event.
 */
export function auditCount(event: {
  action: string;
  objectName: string | null;
}): { count: number; noun: AuditCountNoun } | null {
  const counted = COUNTED.find((c) => c.matches(event.action));
  const match = counted && event.objectName ? /^(\d+)(?:\s|$)/.exec(event.objectName) : null;
  return counted && match ? { count: Number(match[1]), noun: counted.noun } : null;
}

import {
  type AdminEvent,
  AUDIT_ACTIONS,
  AUDIT_AREAS,
  AUDIT_OBJECT_TYPES,
  auditCount,
} from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { catalogName, policyDisplayName } from './policy-names';

// The event log's words, shared by every screen that shows events (the dashboard, /events/admin). Labels live in
// the catalogues under `audit.*`, keyed by the contracts' constants: `audit.actions.<action>` (the action's dots
// nest), `audit.objectTypes.<type>`, `audit.areas.<area>`, `audit.fields.<field>`. Anything the constants do not
// know — an event from an older or newer server — shows as recorded.

const ACTIONS: ReadonlySet<string> = new Set(AUDIT_ACTIONS);
const OBJECT_TYPES: ReadonlySet<string> = new Set(AUDIT_OBJECT_TYPES);
const AREAS: ReadonlySet<string> = new Set(AUDIT_AREAS);
/** Keys an event's values may carry that would clash with i18next's own key syntax. */
const PLAIN_KEY = /^[A-Za-z][\w-]*$/;

/** "User created" for `user.create`. */
export function auditActionLabel(t: TFunction, action: string): string {
  return ACTIONS.has(action) ? t(`audit.actions.${action}`, { defaultValue: action }) : action;
}

/** "Deployment key" for `deployment_key`. */
export function auditObjectTypeLabel(t: TFunction, objectType: string): string {
  return OBJECT_TYPES.has(objectType)
    ? t(`audit.objectTypes.${objectType}`, { defaultValue: objectType })
    : objectType;
}

/** "Users" for the area `user` (the "every action of" filter choice); `user.*` when the area is unknown. */
export function auditAreaLabel(t: TFunction, area: string): string {
  return AREAS.has(area) ? t(`audit.areas.${area}`, { defaultValue: `${area}.*` }) : `${area}.*`;
}

/**
 * A field of an event's before/after values as the screens name it ("Full name" for `fullname`); an unknown
 * field shows as recorded.
 */
export function auditFieldLabel(t: TFunction, field: string): string {
  return PLAIN_KEY.test(field) ? t(`audit.fields.${field}`, { defaultValue: field }) : field;
}

/** The parts of an event its object's name is made of. */
export type AuditObjectRef = Pick<AdminEvent, 'action' | 'objectType' | 'objectId' | 'objectName'>;

/**
 * What an event is about, in words: "2 users" for a bulk change or an import (in the reader's plural rules),
 * the list's name for a reorder, shipped categories, feeds and derived policies by their translated names, else
 * the recorded name; null without one.
 */
export function auditObjectName(t: TFunction, event: AuditObjectRef): string | null {
  const counted = auditCount(event);
  if (counted) {
    return counted.noun === 'user'
      ? t('audit.counts.user', { count: counted.count, defaultValue: event.objectName })
      : t('audit.counts.group', { count: counted.count, defaultValue: event.objectName });
  }
  if (event.objectName === null) return null;
  if (event.objectType === 'policyList' && PLAIN_KEY.test(event.objectName)) {
    return t(`audit.policyLists.${event.objectName}`, { defaultValue: event.objectName });
  }
  if (event.objectType === 'policy') return policyDisplayName(t, event.objectName);
  if ((event.objectType === 'category' || event.objectType === 'feed') && event.objectId) {
    return catalogName(t, event.objectType, event.objectId, event.objectName);
  }
  return event.objectName;
}

/** The label functions bound to the current language. */
export function useAuditLabels() {
  const { t } = useTranslation();
  return {
    actionLabel: (action: string) => auditActionLabel(t, action),
    objectTypeLabel: (objectType: string) => auditObjectTypeLabel(t, objectType),
    areaLabel: (area: string) => auditAreaLabel(t, area),
    fieldLabel: (field: string) => auditFieldLabel(t, field),
    objectName: (event: AuditObjectRef) => auditObjectName(t, event),
  };
}

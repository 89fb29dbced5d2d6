import type { TemplateChange, TemplateState } from '@palisade/contracts';
import type { TFunction } from 'i18next';

/** The roles that have a partner console (and so policy templates). */
export const CONSOLE_ROLES: readonly string[] = ['partner_admin', 'platform_admin'];

export const stateLabel = (t: TFunction, state: TemplateState): string =>
  ({
    never: t('policyTemplates.state.never', 'Never applied'),
    inSync: t('policyTemplates.state.inSync', 'In sync'),
    drifted: t('policyTemplates.state.drifted', 'Drifted'),
    outdated: t('policyTemplates.state.outdated', 'Template newer'),
  })[state];

export const STATE_COLORS: Record<TemplateState, string> = {
  never: 'gray',
  inSync: 'green',
  drifted: 'orange',
  outdated: 'yellow',
};

export const changeLabel = (t: TFunction, change: TemplateChange): string =>
  ({
    create: t('policyTemplates.change.create', 'Create'),
    update: t('policyTemplates.change.update', 'Update'),
    unchanged: t('policyTemplates.change.unchanged', 'Unchanged'),
  })[change];

import type { Decision } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** Translated decisions, for every screen that shows one (policy and object screens alike). */
export function useDecisionLabels(): Record<Decision, string> {
  const { t } = useTranslation();
  return {
    allow: t('policies.decisions.allow', 'Allowed'),
    block: t('policies.decisions.block', 'Blocked'),
  };
}

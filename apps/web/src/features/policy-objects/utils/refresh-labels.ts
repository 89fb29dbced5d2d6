import { useTranslation } from 'react-i18next';

/** "Every 15 minutes", "Every hour", "Every day": the label of a feed refresh interval in minutes. */
export function useRefreshLabels(): (minutes: number) => string {
  const { t } = useTranslation();
  return (minutes) =>
    minutes % 1440 === 0
      ? t('policyObjects.feeds.refreshDays', {
          count: minutes / 1440,
          defaultValue_one: 'Every day',
          defaultValue_other: 'Every {{count}} days',
        })
      : minutes % 60 === 0
        ? t('policyObjects.feeds.refreshHours', {
            count: minutes / 60,
            defaultValue_one: 'Every hour',
            defaultValue_other: 'Every {{count}} hours',
          })
        : t('policyObjects.feeds.refreshMinutes', {
            count: minutes,
            defaultValue_one: 'Every minute',
            defaultValue_other: 'Every {{count}} minutes',
          });
}

import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapStatus } from '../utils/network-map-layout';
import classes from './network-map.module.css';

/** How a link looks for each status: the line's pattern says it as well as its colour. */
export const LINK_STYLES: Record<MapStatus, CSSProperties> = {
  online: { stroke: 'var(--mantine-color-green-7)', strokeWidth: 2 },
  offline: { stroke: 'var(--mantine-color-red-7)', strokeWidth: 2, strokeDasharray: '10 6' },
  pending: {
    stroke: 'var(--mantine-color-blue-7)',
    strokeWidth: 2.5,
    strokeDasharray: '1 7',
    strokeLinecap: 'round',
  },
};

/** A short sample of a link's line, as the map draws it. */
function LineSample({ style }: { style: CSSProperties }) {
  return (
    <svg width="44" height="10" aria-hidden focusable="false">
      <line x1="2" y1="5" x2="42" y2="5" style={style} />
    </svg>
  );
}

/** What the lines and boxes of the network map mean, in words beside each sample. */
export function NetworkMapLegend({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <ul className={classes.legend} id={id} aria-label={t('gateways.map.legend', 'Legend')}>
      <li>
        <LineSample style={LINK_STYLES.online} />
        {t('gateways.map.legendOnline', 'Online: solid line with a moving dot')}
      </li>
      <li>
        <LineSample style={LINK_STYLES.offline} />
        {t('gateways.map.legendOffline', 'Offline: dashed line')}
      </li>
      <li>
        <LineSample style={LINK_STYLES.pending} />
        {t('gateways.map.legendPending', 'Pending enrolment: dotted line')}
      </li>
      <li>
        {t(
          'gateways.map.legendRegion',
          'Grey boxes hold the cybernodes of one region; site gateways link to a cybernode of their region, else to the cloud.',
        )}
      </li>
    </ul>
  );
}

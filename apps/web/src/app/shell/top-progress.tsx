import { Progress } from '@mantine/core';
import { useNavigation } from 'react-router';
import { useInFlightCount } from '../../lib/api-client';
import classes from './app-shell.module.css';

/**
 * A thin bar at the top while calls are in progress (spec §4) or a screen is loading. Decorative: screens
 * announce their own loading states, so the bar is hidden from assistive technology.
 */
export function TopProgress() {
  const inFlight = useInFlightCount();
  const navigation = useNavigation();
  const isBusy = inFlight > 0 || navigation.state !== 'idle';
  return (
    <div className={classes.progress} aria-hidden="true" data-busy={isBusy || undefined}>
      {isBusy ? <Progress value={100} animated striped size={3} radius={0} /> : null}
    </div>
  );
}

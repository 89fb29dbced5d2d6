import { createContext, useContext } from 'react';

/**
 * True inside an embedded dashboard (`/embed/…`): the screen is shown without the console's frame, under the
 * embedded view's own title, so page headers step down a level and leave their actions (share, download,
 * schedule) to the console.
 */
export const KioskContext = createContext(false);

/** Whether the screen is shown as an embedded dashboard. */
export function useIsKiosk(): boolean {
  return useContext(KioskContext);
}

/**
 * Toasts (spec §4, §9): six placements, a 300 ms fade and removal 400 ms after hiding starts. The fade is the
 * per-toast CSS transition; the removal is the `<Notifications transitionDuration>` of the app provider, which
 * is how long Mantine keeps a hidden toast in the DOM.
 */
import { type NotificationData, notifications } from '@mantine/notifications';
import { TOAST_FADE_MS, TOAST_REMOVE_MS, type ToastPlacement } from '@palisade/contracts';
import type { ReactNode } from 'react';

/** The six positions Mantine offers. */
export type NotificationPosition = NonNullable<NotificationData['position']>;

/** Spec placement → Mantine position. Start and end are left and right in our left-to-right locales. */
export const TOAST_POSITIONS: Record<ToastPlacement, NotificationPosition> = {
  topCenter: 'top-center',
  bottomCenter: 'bottom-center',
  topStart: 'top-left',
  topEnd: 'top-right',
  bottomStart: 'bottom-left',
  bottomEnd: 'bottom-right',
};

/** Where toasts appear unless a call says otherwise. */
export const DEFAULT_TOAST_PLACEMENT: ToastPlacement = 'topEnd';

/** How long Mantine keeps a hiding toast mounted: pass as `<Notifications transitionDuration>`. */
export const TOAST_TRANSITION_MS = TOAST_REMOVE_MS;

/** How long a toast stays before it starts to fade. */
export const TOAST_VISIBLE_MS = 5000;

/** Options of {@link notify}. */
export interface NotifyOptions {
  /** One of the six spec placements; top end by default. */
  placement?: ToastPlacement;
  /** A theme colour name: `'red'` for errors, `'green'` for success… */
  color?: string;
  /** Bold first line. */
  title?: ReactNode;
  /** Milliseconds before it fades, or false to keep it until closed. */
  autoClose?: number | false;
  /** Replaces a toast with the same id instead of stacking a second one. */
  id?: string;
}

/** Shows a toast and returns its id. The message should already be translated. */
export function notify(message: ReactNode, options: NotifyOptions = {}): string {
  const { placement = DEFAULT_TOAST_PLACEMENT, color, title, autoClose = TOAST_VISIBLE_MS, id } = options;
  return notifications.show({
    id,
    message,
    title,
    color,
    autoClose,
    position: TOAST_POSITIONS[placement],
    // Overrides the 400 ms the container uses for every property, so the fade itself takes 300 ms.
    style: { transitionDuration: `${TOAST_FADE_MS}ms` },
  });
}

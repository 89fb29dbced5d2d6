import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom has no font loading API; Mantine's auto-sizing Textarea listens for fonts that finish loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
}
// Nor does it lay anything out, so there is nothing to observe resizing.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Mantine's focus trap warns with the whole node it found nothing to focus in (happy-dom has no layout, so a popover
// that only holds text or a chart has no tabbable child). Printing that node formats its React fiber tree: megabytes
// and seconds per warning. The warning stays, without the node.
const FOCUS_TRAP_WARNING = '[@mantine/hooks/use-focus-trap]';
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith(FOCUS_TRAP_WARNING)) warn(args[0]);
  else warn(...args);
};

afterEach(() => {
  cleanup();
  // Toasts live in a module-level store: one test's toasts must not show up in the next test's screen.
  notifications.clean();
});

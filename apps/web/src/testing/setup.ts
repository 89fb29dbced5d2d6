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

afterEach(() => {
  cleanup();
  // Toasts live in a module-level store: one test's toasts must not show up in the next test's screen.
  notifications.clean();
});

import type { Session } from '@palisade/contracts';
import { cleanup } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { makeSession, renderWithProviders } from '../../../testing/render';

/** Renders a report screen at its path, as the given session (an owner by default). */
export function renderReport(Screen: ComponentType, route: string, session: Session = makeSession()) {
  return renderWithProviders(<Screen />, { route, session });
}

/** Catches the PDF the screen saves: the blob handed to an object URL, and the link clicked to save it. */
export function catchDownloads() {
  const createObjectURL = vi.fn((_blob: Blob) => 'blob:report');
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
  const clicked: HTMLAnchorElement[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
  return { createObjectURL, clicked };
}

/** Each test starts with empty storage and ends with no stubbed globals or mocks. */
export function isolateReportTests() {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

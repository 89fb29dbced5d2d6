import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnalyticsTransport, createAnalytics } from './analytics';

function fakeTransport() {
  const calls: string[] = [];
  const transport: AnalyticsTransport = {
    init: (key, { apiHost }) => calls.push(`init ${key} ${apiHost}`),
    capture: (event, properties) => calls.push(`capture ${event} ${String(properties?.$current_url ?? '')}`),
    identify: (userId) => calls.push(`identify ${userId}`),
    startSessionRecording: () => calls.push('record'),
    reset: () => calls.push('reset'),
  };
  const loadTransport = vi.fn(async () => transport);
  return { calls, loadTransport };
}

const withKey = () => Promise.resolve({ posthogKey: 'phc_test', posthogHost: 'https://ph.example' });
const withoutKey = () => Promise.resolve({ posthogKey: null, posthogHost: null });

describe('analytics', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads nothing when no key is configured', async () => {
    const { calls, loadTransport } = fakeTransport();
    const analytics = createAnalytics({ loadTransport });
    analytics.start(withoutKey);
    analytics.pageview('/a');
    analytics.identify('u1');
    await vi.advanceTimersByTimeAsync(5000);
    analytics.pageview('/b');
    expect(loadTransport).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });

  it('loads nothing when the config cannot be read', async () => {
    const { loadTransport } = fakeTransport();
    const analytics = createAnalytics({ loadTransport });
    analytics.start(() => Promise.reject(new Error('offline')));
    await vi.advanceTimersByTimeAsync(5000);
    expect(loadTransport).not.toHaveBeenCalled();
  });

  it('starts 500 ms after start, then sends the page views queued meanwhile', async () => {
    const { calls, loadTransport } = fakeTransport();
    const analytics = createAnalytics({ loadTransport });
    analytics.start(withKey);
    analytics.pageview('/first');
    await vi.advanceTimersByTimeAsync(499);
    expect(loadTransport).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(loadTransport).toHaveBeenCalledOnce();
    expect(calls).toEqual(['init phc_test https://ph.example', 'capture $pageview /first']);
  });

  it('captures one page view per route change', async () => {
    const { calls, loadTransport } = fakeTransport();
    const analytics = createAnalytics({ loadTransport });
    analytics.start(withKey);
    await vi.advanceTimersByTimeAsync(500);
    analytics.pageview('/users/list');
    analytics.pageview('/settings');
    expect(calls.filter((c) => c.startsWith('capture'))).toEqual([
      'capture $pageview /users/list',
      'capture $pageview /settings',
    ]);
  });

  it('records sessions only after identify, once per user', async () => {
    const { calls, loadTransport } = fakeTransport();
    const analytics = createAnalytics({ loadTransport });
    analytics.start(withKey);
    await vi.advanceTimersByTimeAsync(500);
    analytics.pageview('/sign-in');
    expect(calls).not.toContain('record');
    analytics.identify('u1');
    analytics.identify('u1');
    expect(calls.slice(-2)).toEqual(['identify u1', 'record']);
    expect(calls.filter((c) => c === 'record')).toHaveLength(1);
  });

  it('keeps an identify made before the start for after it', async () => {
    const { calls, loadTransport } = fakeTransport();
    const analytics = createAnalytics({ loadTransport });
    analytics.start(withKey);
    analytics.identify('u2');
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toEqual(['init phc_test https://ph.example', 'identify u2', 'record']);
  });

  it('forgets the user at reset, so the next identify records again', async () => {
    const { calls, loadTransport } = fakeTransport();
    const analytics = createAnalytics({ loadTransport });
    analytics.start(withKey);
    await vi.advanceTimersByTimeAsync(500);
    analytics.identify('u1');
    analytics.reset();
    analytics.identify('u1');
    expect(calls.slice(1)).toEqual(['identify u1', 'record', 'reset', 'identify u1', 'record']);
  });

  it('starts only once', async () => {
    const { loadTransport } = fakeTransport();
    const analytics = createAnalytics({ loadTransport });
    analytics.start(withKey);
    analytics.start(withKey);
    await vi.advanceTimersByTimeAsync(1000);
    expect(loadTransport).toHaveBeenCalledOnce();
  });
});

/**
 * Product analytics (spec §1, ARCHITECTURE §6): posthog-js, off unless the public config carries a key. It
 * starts 500 ms after the app, captures a page view on every route change and records sessions only once the
 * user is identified. The transport is injectable so tests run it with a fake and nothing leaves the machine.
 */
import { ANALYTICS_START_DELAY_MS } from '@palisade/contracts';

/** What analytics needs from the public config. */
export interface AnalyticsConfig {
  posthogKey: string | null;
  posthogHost: string | null;
}

/** The calls we make on posthog (or a fake). */
export interface AnalyticsTransport {
  init(key: string, options: { apiHost: string | null }): void;
  capture(event: string, properties?: Record<string, unknown>): void;
  identify(userId: string): void;
  startSessionRecording(): void;
  reset(): void;
}

/** Loads the transport; only called when a key is configured. */
export type TransportLoader = () => Promise<AnalyticsTransport>;

/** The real transport: posthog-js, fetched as its own chunk. */
export const loadPosthog: TransportLoader = async () => {
  const { default: posthog } = await import('posthog-js');
  return {
    init: (key, { apiHost }) => {
      posthog.init(key, {
        ...(apiHost ? { api_host: apiHost } : {}),
        // Page views come from the router; recording waits for identify.
        capture_pageview: false,
        disable_session_recording: true,
        autocapture: false,
        persistence: 'localStorage',
      });
    },
    capture: (event, properties) => {
      posthog.capture(event, properties);
    },
    identify: (userId) => {
      posthog.identify(userId);
    },
    startSessionRecording: () => {
      posthog.startSessionRecording();
    },
    reset: () => {
      posthog.stopSessionRecording();
      posthog.reset();
    },
  };
};

/** Options of {@link createAnalytics}. */
export interface AnalyticsOptions {
  loadTransport?: TransportLoader;
  delayMs?: number;
}

/** The analytics facade the app calls; every method is safe to call at any time. */
export interface Analytics {
  /** Schedules the start: after the delay, reads the config and loads the transport when there is a key. */
  start(loadConfig: () => Promise<AnalyticsConfig | null>): void;
  /** Records a page view of `url` (queued until started). */
  pageview(url: string): void;
  /** Ties events to a user and starts session recording (once per user). */
  identify(userId: string): void;
  /** Forgets the user at sign-out. */
  reset(): void;
}

type Pending = { kind: 'pageview'; url: string } | { kind: 'identify'; userId: string } | { kind: 'reset' };

/** Page views kept while analytics starts; older ones are dropped. */
const MAX_PENDING = 50;

/** Builds an analytics facade; the app uses {@link analytics}, tests build their own with a fake transport. */
export function createAnalytics({
  loadTransport = loadPosthog,
  delayMs = ANALYTICS_START_DELAY_MS,
}: AnalyticsOptions = {}): Analytics {
  let state: 'idle' | 'starting' | 'ready' | 'off' = 'idle';
  let transport: AnalyticsTransport | null = null;
  let identified: string | null = null;
  let pending: Pending[] = [];

  function run(action: Pending): void {
    if (!transport) return;
    if (action.kind === 'pageview') {
      transport.capture('$pageview', { $current_url: action.url });
    } else if (action.kind === 'identify') {
      if (identified === action.userId) return;
      identified = action.userId;
      transport.identify(action.userId);
      transport.startSessionRecording();
    } else {
      identified = null;
      transport.reset();
    }
  }

  function enqueue(action: Pending): void {
    if (state === 'off') return;
    if (state === 'ready') {
      run(action);
      return;
    }
    pending.push(action);
    if (pending.length > MAX_PENDING) pending = pending.slice(-MAX_PENDING);
  }

  async function begin(loadConfig: () => Promise<AnalyticsConfig | null>): Promise<void> {
    const config = await loadConfig().catch(() => null);
    if (!config?.posthogKey) {
      state = 'off';
      pending = [];
      return;
    }
    try {
      const loaded = await loadTransport();
      loaded.init(config.posthogKey, { apiHost: config.posthogHost });
      transport = loaded;
    } catch (error) {
      console.warn('Analytics could not start', error);
      state = 'off';
      pending = [];
      return;
    }
    state = 'ready';
    const queued = pending;
    pending = [];
    for (const action of queued) run(action);
  }

  return {
    start(loadConfig) {
      if (state !== 'idle') return;
      state = 'starting';
      setTimeout(() => void begin(loadConfig), delayMs);
    },
    pageview: (url) => enqueue({ kind: 'pageview', url }),
    identify: (userId) => enqueue({ kind: 'identify', userId }),
    reset: () => enqueue({ kind: 'reset' }),
  };
}

/** The app's analytics. */
export const analytics = createAnalytics();

import { ErrorEnvelope, LiveTick, telemetryEndpoints } from '@palisade/contracts';
import { useEffect, useRef, useState } from 'react';
import { ApiError, credentialHeaders } from '../../../lib/api-client';
import { useLostSession } from '../../../lib/file-request';
import { readEventStream } from './event-stream';

/** How long to wait before connecting again after the stream broke off. */
export const LIVE_RECONNECT_MS = 5_000;

/** Where the live view stands: connecting, receiving, paused (the tab is hidden), or waiting to reconnect. */
export type LiveStatus = 'connecting' | 'live' | 'paused' | 'reconnecting';

/** What {@link openLiveStream} reports. */
export interface LiveStreamHandlers {
  /** The server answered and the stream is open. */
  onOpen: () => void;
  onTick: (tick: LiveTick) => void;
}

/**
 * Opens the live telemetry of a tenant (`GET /api/telemetry/:tenant/live`, server-sent events) and reads its
 * `tick` events until the stream ends or `signal` aborts. `EventSource` cannot send the `X-Auth-Token` header
 * the API authenticates with, so this is a `fetch` whose body is read as a stream. Ticks that do not fit the
 * contract are skipped. An error answer rejects with an {@link ApiError}.
 */
export async function openLiveStream(
  tenant: string,
  signal: AbortSignal,
  handlers: LiveStreamHandlers,
  onlyReal = false,
): Promise<void> {
  const base = import.meta.env.VITE_API_BASE ?? '/api';
  const path = `${telemetryEndpoints.liveTelemetry.path.replace(':tenant', encodeURIComponent(tenant))}${
    onlyReal ? '?source=gateway' : ''
  }`;
  const headers = new Headers({ accept: 'text/event-stream', ...credentialHeaders() });
  const response = await fetch(
    new Request(new URL(`${base}${path}`, window.location.origin), { headers, signal, cache: 'no-store' }),
  );
  if (!response.ok || !response.body) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const envelope = ErrorEnvelope.safeParse(body);
    throw new ApiError(
      response.status,
      envelope.success
        ? envelope.data
        : { errcode: 7, code: 'internal_error', message: response.statusText || 'Request failed' },
    );
  }
  handlers.onOpen();
  await readEventStream(
    response.body,
    ({ event, data }) => {
      if (event !== 'tick') return;
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        return;
      }
      const tick = LiveTick.safeParse(json);
      if (tick.success) handlers.onTick(tick.data);
    },
    signal,
  );
}

const isHidden = () => document.visibilityState === 'hidden';

/**
 * The live telemetry of a tenant while the tab is visible: connects on mount, closes the stream when the tab
 * is hidden (status `paused`) and opens it again when it is shown. When the stream breaks off it connects again
 * after {@link LIVE_RECONNECT_MS}; a lost session goes to the sign-in. Never polls.
 */
export function useLiveTelemetry(
  tenant: string,
  onTick: (tick: LiveTick) => void,
  /** Only the decisions the gateways saw (simulated ones left out): the stream is opened again on a change. */
  onlyReal = false,
): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>(() => (isHidden() ? 'paused' : 'connecting'));
  const onTickRef = useRef(onTick);
  const onLostSession = useLostSession();
  const onLostSessionRef = useRef(onLostSession);
  useEffect(() => {
    onTickRef.current = onTick;
    onLostSessionRef.current = onLostSession;
  });

  useEffect(() => {
    if (!tenant) return;
    let controller: AbortController | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;

    const stop = () => {
      clearTimeout(retry);
      controller?.abort();
      controller = null;
    };
    const connect = () => {
      stop();
      const current = new AbortController();
      controller = current;
      setStatus((previous) => (previous === 'reconnecting' ? previous : 'connecting'));
      const scheduleRetry = () => {
        if (current.signal.aborted) return;
        setStatus('reconnecting');
        retry = setTimeout(connect, LIVE_RECONNECT_MS);
      };
      openLiveStream(
        tenant,
        current.signal,
        {
          onOpen: () => {
            if (!current.signal.aborted) setStatus('live');
          },
          onTick: (tick) => onTickRef.current(tick),
        },
        onlyReal,
      ).then(scheduleRetry, (error: unknown) => {
        if (current.signal.aborted) return;
        if (error instanceof ApiError && (error.status === 401 || error.errcode === 1)) {
          onLostSessionRef.current();
          return;
        }
        scheduleRetry();
      });
    };
    const onVisibilityChange = () => {
      if (isHidden()) {
        stop();
        setStatus('paused');
      } else if (!controller) {
        connect();
      }
    };

    if (isHidden()) setStatus('paused');
    else connect();
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      document.removeEventListener('visibilitychange', onVisibilityChange);
      stop();
    };
  }, [tenant, onlyReal]);

  return status;
}

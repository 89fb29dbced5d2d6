import { type LiveTick, telemetryEndpoints } from '@palisade/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { makeTick } from '../testing/fixtures';
import { addTick, LIVE_WINDOW_MS, Component as LiveDashboard, topDestinations } from './live-dashboard';

/** One stream the fake server opened: the test sends on it and sees whether the client cancelled it. */
interface FakeStream {
  send: (text: string) => void;
  isCancelled: () => boolean;
}

/** The fake API of the live view: every request opens a new event stream the test writes to. */
function fakeLiveApi() {
  const streams: FakeStream[] = [];
  const encoder = new TextEncoder();
  const api = fakeApi().on(telemetryEndpoints.liveTelemetry, () => {
    let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(source) {
        controller = source;
      },
      cancel() {
        cancelled = true;
      },
    });
    streams.push({
      send: (text) => controller?.enqueue(encoder.encode(text)),
      isCancelled: () => cancelled,
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  const sendTick = async (index: number, tick: LiveTick) => {
    await act(async () => {
      streams[index].send(`event: tick\ndata: ${JSON.stringify(tick)}\n\n`);
    });
  };
  return { api, streams, sendTick };
}

let visibility: DocumentVisibilityState = 'visible';
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

function setup() {
  return renderWithProviders(<LiveDashboard />, { route: '/live', session: makeSession() });
}

const kpi = (name: string) => within(screen.getByRole('region', { name })).getByTestId('kpi-value');

describe('live dashboard', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (document as { visibilityState?: unknown }).visibilityState;
    visibility = 'visible';
  });

  it('shows the ticks of the stream as they come, per second and over the window', async () => {
    const { api, streams, sendTick } = fakeLiveApi();
    setup();
    expect(await screen.findByText('Live')).toBeInTheDocument();
    const [call] = api.calls(telemetryEndpoints.liveTelemetry);
    expect(call.url.pathname).toBe('/api/telemetry/acme/live');
    // EventSource cannot send the session header: the stream is a fetch that can.
    expect(call.headers.get('X-Auth-Token')).toBe('test-session');
    expect(call.headers.get('accept')).toBe('text/event-stream');
    expect(kpi('Decisions')).toHaveTextContent('—');

    await sendTick(0, makeTick('2026-03-02T09:30:00.000Z'));
    expect(kpi('Decisions')).toHaveTextContent('1,234');
    expect(kpi('Blocks')).toHaveTextContent('56');
    expect(kpi('Connections')).toHaveTextContent('7');
    expect(
      within(screen.getByRole('region', { name: 'Decisions' })).getByText('per second, the latest second'),
    ).toBeVisible();

    // A comment, a malformed tick and another kind of event are skipped; the next tick counts.
    await act(async () => {
      streams[0].send(': keep-alive\n\nevent: tick\ndata: {"at":1}\n\nevent: other\ndata: {}\n\n');
    });
    await sendTick(0, makeTick('2026-03-02T09:30:01.000Z', { decisions: 2_000, blocked: 1_000 }));
    expect(kpi('Decisions')).toHaveTextContent('2,000');
    const destinations = screen.getByRole('region', { name: 'Top destinations' });
    const names = within(destinations)
      .getAllByRole('button', { name: /show the events/ })
      .map((button) => button.textContent);
    expect(names).toEqual(['example.com', 'malware.test']);
    expect(within(destinations).getByText('2,000')).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: 'Chart: Decisions and blocks, last 5 minutes, Requests per second.' }),
    ).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('marks a window holding simulated decisions, and streams only real ones on request', async () => {
    const { api, streams, sendTick } = fakeLiveApi();
    const { user } = setup();
    await screen.findByText('Live');
    await sendTick(0, makeTick('2026-03-02T09:30:00.000Z', { simulated: 0 }));
    expect(screen.queryByText('Includes simulated traffic')).not.toBeInTheDocument();
    await sendTick(0, makeTick('2026-03-02T09:30:01.000Z', { simulated: 1_000 }));
    expect(screen.getByText('Includes simulated traffic')).toBeVisible();

    await user.click(screen.getByRole('switch', { name: /Real traffic only/ }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.liveTelemetry)).toHaveLength(2));
    expect(streams[0].isCancelled()).toBe(true);
    const [, real] = api.calls(telemetryEndpoints.liveTelemetry);
    expect(real.url.searchParams.get('source')).toBe('gateway');
    // A new window: the simulated seconds of the old stream are gone, and so is the mark.
    expect(screen.queryByText('Includes simulated traffic')).not.toBeInTheDocument();
    await sendTick(1, makeTick('2026-03-02T09:30:02.000Z', { decisions: 7, simulated: 0 }));
    expect(kpi('Decisions')).toHaveTextContent('7');
  });

  it('closes the stream while the tab is hidden, says so, and opens a new one when it is shown', async () => {
    const { api, streams, sendTick } = fakeLiveApi();
    setup();
    await screen.findByText('Live');
    await sendTick(0, makeTick('2026-03-02T09:30:00.000Z'));
    expect(kpi('Decisions')).toHaveTextContent('1,234');

    setVisibility('hidden');
    expect(await screen.findByText('Paused')).toBeInTheDocument();
    await waitFor(() => expect(streams[0].isCancelled()).toBe(true));
    expect(api.calls(telemetryEndpoints.liveTelemetry)).toHaveLength(1);

    setVisibility('visible');
    expect(await screen.findByText('Live')).toBeInTheDocument();
    expect(api.calls(telemetryEndpoints.liveTelemetry)).toHaveLength(2);
    await sendTick(1, makeTick('2026-03-02T09:31:00.000Z', { decisions: 42 }));
    expect(kpi('Decisions')).toHaveTextContent('42');
    expect(streams[1].isCancelled()).toBe(false);
  });

  it('does not connect while the tab is hidden from the start', async () => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    const { api } = fakeLiveApi();
    setup();
    expect(await screen.findByText('Paused')).toBeInTheDocument();
    expect(screen.getByText('Paused while this tab is in the background.')).toBeInTheDocument();
    expect(api.calls(telemetryEndpoints.liveTelemetry)).toHaveLength(0);
  });

  it('closes the stream when the screen is left', async () => {
    const { streams } = fakeLiveApi();
    const { unmount } = setup();
    await screen.findByText('Live');
    unmount();
    await waitFor(() => expect(streams[0].isCancelled()).toBe(true));
  });

  it('drills down from a destination to its decisions of the window', async () => {
    const { api, sendTick } = fakeLiveApi();
    api.on(telemetryEndpoints.listDecisionEvents, () => ({
      items: [],
      total: 0,
      totalIsEstimate: false,
      nextCursor: null,
    }));
    const { user } = setup();
    await screen.findByText('Live');
    await sendTick(0, makeTick('2026-03-02T09:30:00.000Z'));
    const destinations = screen.getByRole('region', { name: 'Top destinations' });
    await user.click(within(destinations).getByRole('button', { name: 'Blocked, malware.test: 50' }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(1));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[0].query).toMatchObject({
      destination: 'malware.test',
      decision: 'block',
      from: '2026-03-02T09:25:00.000Z',
      to: '2026-03-02T09:30:01.000Z',
    });
  });
});

describe('the live window', () => {
  it('keeps five minutes of ticks, replacing a second sent twice', () => {
    const start = Date.parse('2026-03-02T09:00:00.000Z');
    let ticks: LiveTick[] = [];
    for (let second = 0; second <= 330; second += 1) {
      ticks = addTick(ticks, makeTick(new Date(start + second * 1000).toISOString()));
    }
    expect(ticks).toHaveLength(LIVE_WINDOW_MS / 1000);
    expect(ticks[0].at).toBe('2026-03-02T09:00:31.000Z');
    const again = addTick(ticks, makeTick(ticks.at(-1)?.at ?? '', { decisions: 1 }));
    expect(again).toHaveLength(ticks.length);
    expect(again.at(-1)?.decisions).toBe(1);
  });

  it('sums the destinations of the window, most requests first', () => {
    const ticks = [
      makeTick('2026-03-02T09:00:00.000Z', { destinations: [{ value: 'a.test', events: 5, blocked: 1 }] }),
      makeTick('2026-03-02T09:00:01.000Z', {
        destinations: [
          { value: 'b.test', events: 7, blocked: 7 },
          { value: 'a.test', events: 4, blocked: 0 },
        ],
      }),
    ];
    expect(topDestinations(ticks)).toEqual([
      { key: 'a.test', label: 'a.test', allowed: 8, blocked: 1 },
      { key: 'b.test', label: 'b.test', allowed: 0, blocked: 7 },
    ]);
  });
});

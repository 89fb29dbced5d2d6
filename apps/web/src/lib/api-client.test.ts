import { endpoint } from '@palisade/contracts';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type * as ApiClient from './api-client';

// The client keeps module state (rate-limit windows, calls in progress): every test gets a fresh copy.
let api: typeof ApiClient;

const Row = z.object({ id: z.string() });

const listUsers = endpoint({
  method: 'GET',
  path: '/subscriber/user/:tenant',
  access: 'session',
  summary: 'List users',
  tags: ['test'],
  params: z.object({ tenant: z.string() }),
  query: z.object({ q: z.string().optional(), limit: z.number().optional() }),
  response: z.array(Row),
});
const getUser = endpoint({
  method: 'GET',
  path: '/subscriber/user/:tenant/:id',
  access: 'session',
  summary: 'One user',
  tags: ['test'],
  params: z.object({ tenant: z.string(), id: z.string() }),
  response: Row,
});
const createUser = endpoint({
  method: 'POST',
  path: '/subscriber/user/:tenant',
  access: 'session',
  summary: 'Create a user',
  tags: ['test'],
  params: z.object({ tenant: z.string() }),
  body: z.object({ name: z.string() }),
  response: Row,
});
const deleteSession = endpoint({
  method: 'DELETE',
  path: '/session',
  access: 'session',
  summary: 'Sign out',
  tags: ['test'],
  response: z.object({ ok: z.literal(true) }),
});
const signIn = endpoint({
  method: 'POST',
  path: '/session',
  access: 'public',
  summary: 'Sign in',
  tags: ['test'],
  body: z.object({ username: z.string() }),
  response: z.object({ sessid: z.string() }),
});

const fetchMock = vi.fn<(input: Request) => Promise<Response>>();
const toast = vi.fn();
const navigate = vi.fn();

function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
}

function envelope(
  errcode: number,
  code: string,
  status: number,
  headers: Record<string, string> = {},
): Response {
  return json({ errcode, code, message: `${code} happened` }, { status, headers });
}

/** A fetch that never answers but rejects like the real one when its api.request is aborted. */
function hangingFetch(input: Request): Promise<Response> {
  return new Promise((_resolve, reject) => {
    input.signal.addEventListener('abort', () => reject(input.signal.reason), { once: true });
  });
}

/** The n-th api.request that reached fetch. */
function sent(n = 0): Request {
  return fetchMock.mock.calls[n][0];
}

/** Settles a promise without letting its rejection go unhandled while timers are advanced. */
function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

beforeEach(async () => {
  vi.resetModules();
  api = await import('./api-client');
  vi.useFakeTimers();
  localStorage.clear();
  sessionStorage.clear();
  fetchMock.mockReset();
  toast.mockReset();
  navigate.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  api.configureApiClient({ toast, navigate, signOutPartners: ['netgear'] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('URL', () => {
  it('puts the path under /api with URL-encoded params and drops undefined query values', async () => {
    fetchMock.mockResolvedValue(json([{ id: 'u1' }]));
    const rows = await api.request(listUsers, {
      params: { tenant: 'acme corp/eu' },
      query: { q: undefined, limit: 5 },
    });
    const url = new URL(sent().url);
    expect(url.pathname).toBe('/api/subscriber/user/acme%20corp%2Feu');
    expect(url.search).toBe('?limit=5');
    expect(sent().method).toBe('GET');
    expect(rows).toEqual([{ id: 'u1' }]);
  });

  it('uses the reports base when asked', async () => {
    fetchMock.mockResolvedValue(json({ id: 'u1' }));
    await api.request(getUser, { params: { tenant: 'acme', id: '42' }, reports: true });
    expect(new URL(sent().url).pathname).toBe('/api/reports/subscriber/user/acme/42');
  });

  it('refuses to call a path whose parameter is missing', async () => {
    await expect(api.request(getUser, { params: { tenant: 'acme' } as never })).rejects.toThrow(
      /Missing path parameter "id"/,
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('headers', () => {
  it('sends X-Auth-Token with the stored session id on session calls', async () => {
    localStorage.setItem('sessid', 'sess-123');
    fetchMock.mockResolvedValue(json({ ok: true }));
    await api.request(deleteSession);
    expect(sent().headers.get('X-Auth-Token')).toBe('sess-123');
  });

  it('leaves X-Auth-Token off public calls even when signed in', async () => {
    localStorage.setItem('sessid', 'sess-123');
    fetchMock.mockResolvedValue(json({ sessid: 'new' }));
    await api.request(signIn, { body: { username: 'a@b.c' } });
    expect(sent().headers.has('X-Auth-Token')).toBe(false);
  });

  it('sends Home-Plmn only when a home PLMN is given', async () => {
    fetchMock.mockImplementation(async () => json({ id: 'u1' }));
    await api.request(getUser, { params: { tenant: 'acme', id: '1' }, homePlmn: '310-410' });
    await api.request(getUser, { params: { tenant: 'acme', id: '1' } });
    expect(sent(0).headers.get('Home-Plmn')).toBe('310-410');
    expect(sent(1).headers.has('Home-Plmn')).toBe(false);
  });
});

describe('bodies and answers', () => {
  it('sends a JSON body', async () => {
    let received = '';
    fetchMock.mockImplementation(async (input) => {
      received = await input.text();
      return json({ id: 'u9' }, { status: 201 });
    });
    const created = await api.request(createUser, { params: { tenant: 'acme' }, body: { name: 'Ada' } });
    expect(sent().method).toBe('POST');
    expect(sent().headers.get('content-type')).toBe('application/json');
    expect(received).toBe('{"name":"Ada"}');
    expect(created).toEqual({ id: 'u9' });
  });

  it('sends multipart when form data is given', async () => {
    let received = new FormData();
    fetchMock.mockImplementation(async (input) => {
      received = await input.formData();
      return json({ id: 'u9' });
    });
    const formData = new FormData();
    formData.append('file', new File(['a,b\n'], 'users.txt', { type: 'text/plain' }));
    formData.append('kind', 'users');
    await api.request(createUser, { params: { tenant: 'acme' }, formData });
    expect(sent().headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(received.get('kind')).toBe('users');
    expect((received.get('file') as File).name).toBe('users.txt');
  });

  it('answers undefined when there is no body', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    fetchMock.mockResolvedValueOnce(new Response('', { status: 200 }));
    expect(await api.request(deleteSession)).toBeUndefined();
    expect(await api.request(deleteSession)).toBeUndefined();
  });
});

describe('contract checks', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('throws a ContractError naming the endpoint and the field when an answer drifted from its contract', async () => {
    fetchMock.mockResolvedValue(json({ id: 7 }));
    const answer = settle(api.request(getUser, { params: { tenant: 'acme', id: 'u1' } }));
    const { error } = await answer;
    expect(error).toBeInstanceOf(api.ContractError);
    expect((error as Error).message).toMatch(
      /^The answer to GET \/subscriber\/user\/:tenant\/:id does not match/,
    );
    expect((error as Error).message).toMatch(/id: Invalid input: expected string/);
  });

  it('also logs the answer in development', async () => {
    vi.stubEnv('MODE', 'development');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockResolvedValue(json([{ name: 'no id' }]));
    const { error } = await settle(api.request(listUsers, { params: { tenant: 'acme' } }));
    expect(error).toBeInstanceOf(api.ContractError);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/0\.id: /), [{ name: 'no id' }]);
  });

  it('passes answers through unchecked in a production build', async () => {
    vi.stubEnv('DEV', false);
    vi.stubEnv('MODE', 'production');
    fetchMock.mockResolvedValue(json({ id: 7 }));
    expect(await api.request(getUser, { params: { tenant: 'acme', id: 'u1' } })).toEqual({ id: 7 });
  });
});

describe('timeout', () => {
  it('gives each attempt 120 000 ms, then retries', async () => {
    fetchMock.mockImplementation(hangingFetch);
    const result = settle(api.request(getUser, { params: { tenant: 'acme', id: '1' } }));
    await vi.advanceTimersByTimeAsync(119_999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1 + 2_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(120_000 + 4_000 + 120_000);
    const { error } = await result;
    expect((error as Error).name).toBe('TimeoutError');
    expect(navigate).toHaveBeenCalledWith('/network-error');
  });
});

describe('cancellation', () => {
  it('rethrows the abort error unchanged, without retry or redirect', async () => {
    fetchMock.mockImplementation(hangingFetch);
    const controller = new AbortController();
    const result = settle(
      api.request(getUser, { params: { tenant: 'acme', id: '1' }, signal: controller.signal }),
    );
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    const { error } = await result;
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe('AbortError');
    await vi.advanceTimersByTimeAsync(130_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(navigate).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('networkError')).toBeNull();
  });

  it('stops a pending retry when aborted during the wait', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const controller = new AbortController();
    const result = settle(
      api.request(getUser, { params: { tenant: 'acme', id: '1' }, signal: controller.signal }),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    const { error } = await result;
    expect((error as Error).name).toBe('AbortError');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('does not count an abort as a network failure, even after two of them', async () => {
    fetchMock
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockImplementationOnce(hangingFetch);
    const controller = new AbortController();
    const result = settle(
      api.request(getUser, { params: { tenant: 'acme', id: '1' }, signal: controller.signal }),
    );
    await vi.advanceTimersByTimeAsync(2_000 + 4_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    controller.abort();
    expect((await result).error).toBe(controller.signal.reason);
    expect(navigate).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('networkError')).toBeNull();
  });

  it('does not send a call whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(api.request(deleteSession, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('client-side rate limit', () => {
  it('rejects the 101st call in 60 s for a method+path without sending, and allows it after the window', async () => {
    fetchMock.mockImplementation(async () => json({ id: 'u1' }));
    for (let i = 0; i < 100; i += 1) {
      // Different ids, same path pattern: one budget.
      await api.request(getUser, { params: { tenant: 'acme', id: String(i) } });
    }
    expect(fetchMock).toHaveBeenCalledTimes(100);

    await expect(api.request(getUser, { params: { tenant: 'acme', id: 'x' } })).rejects.toBeInstanceOf(
      api.RateLimitError,
    );
    expect(fetchMock).toHaveBeenCalledTimes(100);
    expect(toast).toHaveBeenCalledTimes(1);
    expect(toast).toHaveBeenCalledWith('error.tooManyRequests', {
      defaultValue: 'Too many requests at a time, please wait before trying again.',
    });

    // Another method+path keeps its own budget.
    fetchMock.mockResolvedValueOnce(json({ ok: true }));
    await api.request(deleteSession);
    expect(fetchMock).toHaveBeenCalledTimes(101);

    await vi.advanceTimersByTimeAsync(60_000);
    await expect(api.request(getUser, { params: { tenant: 'acme', id: 'x' } })).resolves.toEqual({
      id: 'u1',
    });
    expect(fetchMock).toHaveBeenCalledTimes(102);
  });

  it('slides: slots free up as the oldest calls leave the window', async () => {
    fetchMock.mockImplementation(async () => json({ ok: true }));
    for (let i = 0; i < 60; i += 1) await api.request(deleteSession);
    await vi.advanceTimersByTimeAsync(30_000);
    for (let i = 0; i < 40; i += 1) await api.request(deleteSession);
    await expect(api.request(deleteSession)).rejects.toBeInstanceOf(api.RateLimitError);

    await vi.advanceTimersByTimeAsync(30_000);
    // The first 60 have left the window; the 40 later ones still count.
    for (let i = 0; i < 60; i += 1) await api.request(deleteSession);
    await expect(api.request(deleteSession)).rejects.toBeInstanceOf(api.RateLimitError);
    expect(fetchMock).toHaveBeenCalledTimes(160);
  });
});

describe('lost session', () => {
  beforeEach(() => {
    localStorage.setItem('sessid', 'sess-1');
    localStorage.setItem('userName', 'ada@acme.test');
    localStorage.setItem('unrelated', 'kept');
  });

  it('on 401 clears the session and goes to /sign-in', async () => {
    fetchMock.mockResolvedValue(envelope(1, 'unauthenticated', 401));
    const error = await api.request(deleteSession).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(api.ApiError);
    expect(error).toMatchObject({ status: 401, errcode: 1, code: 'unauthenticated' });
    expect(localStorage.getItem('sessid')).toBeNull();
    expect(localStorage.getItem('userName')).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('kept');
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/sign-in');
  });

  it("goes to the stored partner's sign-in page", async () => {
    localStorage.setItem('partnername', 'acme-partner');
    fetchMock.mockResolvedValue(new Response('', { status: 401 }));
    await expect(api.request(deleteSession)).rejects.toMatchObject({ status: 401 });
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/acme-partner/sign-in');
    expect(localStorage.getItem('partnername')).toBeNull();
  });

  it('goes to /ntgr-signout for a listed partner', async () => {
    localStorage.setItem('partnername', 'netgear');
    fetchMock.mockResolvedValue(envelope(1, 'unauthenticated', 401));
    await expect(api.request(deleteSession)).rejects.toBeInstanceOf(api.ApiError);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/ntgr-signout');
  });

  it('treats errcode 1 in a 200 answer the same way', async () => {
    fetchMock.mockResolvedValue(json({ errcode: 1 }));
    await expect(api.request(deleteSession)).rejects.toMatchObject({
      status: 200,
      errcode: 1,
      code: 'unauthenticated',
    });
    expect(localStorage.getItem('sessid')).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/sign-in');
  });

  it('treats errcode 1 in another error status the same way', async () => {
    fetchMock.mockResolvedValue(envelope(1, 'unauthenticated', 403));
    await expect(api.request(deleteSession)).rejects.toMatchObject({ status: 403, errcode: 1 });
    expect(localStorage.getItem('sessid')).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/sign-in');
  });

  it('leaves the session alone on a public call answering 401', async () => {
    fetchMock.mockResolvedValue(envelope(8, 'invalid_credentials', 401));
    await expect(api.request(signIn, { body: { username: 'a@b.c' } })).rejects.toMatchObject({ errcode: 8 });
    expect(localStorage.getItem('sessid')).toBe('sess-1');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('leaves the session alone on other errors', async () => {
    fetchMock.mockResolvedValue(envelope(3, 'forbidden', 403));
    await expect(api.request(deleteSession)).rejects.toMatchObject({ errcode: 3 });
    expect(localStorage.getItem('sessid')).toBe('sess-1');
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('network failures', () => {
  it('retries after 2000 then 4000 ms, and at the third retry sets the flag and goes to /network-error', async () => {
    const failure = new TypeError('Failed to fetch');
    fetchMock.mockRejectedValue(failure);
    const result = settle(api.request(getUser, { params: { tenant: 'acme', id: '1' } }));

    await vi.advanceTimersByTimeAsync(1_999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3_999);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(navigate).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('networkError')).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);

    const { error } = await result;
    expect(error).toBe(failure);
    expect(sessionStorage.getItem('networkError')).toBe('true');
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/network-error');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('resolves when a retry gets through', async () => {
    fetchMock
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(json({ id: 'u1' }));
    const result = settle(api.request(getUser, { params: { tenant: 'acme', id: '1' } }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await result).toEqual({ value: { id: 'u1' } });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('retries writes too after a network failure (nothing reached the server)', async () => {
    const bodies: string[] = [];
    fetchMock.mockImplementation(async (input) => {
      bodies.push(await input.text());
      if (bodies.length === 1) throw new TypeError('network reset');
      return json({ id: 'u2' });
    });
    const result = settle(api.request(createUser, { params: { tenant: 'acme' }, body: { name: 'Ada' } }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await result).toEqual({ value: { id: 'u2' } });
    expect(bodies).toEqual(['{"name":"Ada"}', '{"name":"Ada"}']);
  });
});

describe('status retries', () => {
  it('retries an idempotent call on 503 honouring Retry-After', async () => {
    fetchMock
      .mockResolvedValueOnce(envelope(7, 'internal_error', 503, { 'Retry-After': '5' }))
      .mockResolvedValueOnce(json({ id: 'u1' }));
    const result = settle(api.request(getUser, { params: { tenant: 'acme', id: '1' } }));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(await result).toEqual({ value: { id: 'u1' } });
  });

  it('gives up on a persistent 5xx after 3 retries with the server error', async () => {
    fetchMock.mockImplementation(async () => envelope(7, 'internal_error', 500));
    const result = settle(api.request(getUser, { params: { tenant: 'acme', id: '1' } }));
    await vi.advanceTimersByTimeAsync(2_000 + 4_000 + 6_000);
    const { error } = await result;
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(error).toMatchObject({ status: 500, errcode: 7, code: 'internal_error' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('retries 429 on an idempotent call', async () => {
    fetchMock
      .mockResolvedValueOnce(envelope(6, 'rate_limited', 429, { 'Retry-After': '1' }))
      .mockResolvedValueOnce(json({ ok: true }));
    const result = settle(api.request(deleteSession));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await result).toEqual({ value: { ok: true } });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not retry a POST answering 503', async () => {
    fetchMock.mockResolvedValue(envelope(7, 'internal_error', 503, { 'Retry-After': '1' }));
    const result = settle(api.request(createUser, { params: { tenant: 'acme' }, body: { name: 'Ada' } }));
    await vi.advanceTimersByTimeAsync(20_000);
    const { error } = await result;
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(error).toMatchObject({ status: 503, errcode: 7 });
  });

  it('does not retry a 4xx', async () => {
    fetchMock.mockResolvedValue(envelope(4, 'not_found', 404));
    const result = settle(api.request(getUser, { params: { tenant: 'acme', id: '1' } }));
    await vi.advanceTimersByTimeAsync(20_000);
    expect((await result).error).toMatchObject({ status: 404, errcode: 4, code: 'not_found' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('errors', () => {
  it('builds ApiError from the envelope, details included', async () => {
    const details = [{ path: 'name', message: 'validation.required' }];
    fetchMock.mockResolvedValue(
      json({ errcode: 2, code: 'validation_failed', message: 'Invalid input', details }, { status: 400 }),
    );
    const error = await api
      .request(createUser, { params: { tenant: 'acme' }, body: { name: '' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(api.ApiError);
    expect(error).toMatchObject({
      status: 400,
      errcode: 2,
      code: 'validation_failed',
      message: 'Invalid input',
      details,
    });
  });

  it('falls back to internal_error / errcode 7 when the body is not an envelope', async () => {
    fetchMock.mockResolvedValue(
      new Response('<html>Bad gateway</html>', { status: 400, statusText: 'Bad Request' }),
    );
    await expect(
      api.request(createUser, { params: { tenant: 'acme' }, body: { name: 'x' } }),
    ).rejects.toMatchObject({
      status: 400,
      errcode: 7,
      code: 'internal_error',
      message: 'Bad Request',
    });
  });

  it('maps errors to translation keys', () => {
    expect(api.errorMessageKey(new api.ApiError(404, { errcode: 4, code: 'not_found', message: 'x' }))).toBe(
      'error.4',
    );
    expect(api.errorMessageKey(new TypeError('Failed to fetch'))).toBe('error.genericFetchErrorText');
    expect(api.errorMessageKey('boom')).toBe('error.genericFetchErrorText');
    expect(api.errorMessageKey(new api.RateLimitError('GET /x'))).toBe('error.tooManyRequests');
  });

  it('reports load failures with that key, but not cancellations', () => {
    api.reportLoadFailure(new api.ApiError(403, { errcode: 3, code: 'forbidden', message: 'Forbidden' }));
    api.reportLoadFailure(new TypeError('Failed to fetch'));
    api.reportLoadFailure(new DOMException('The operation was aborted.', 'AbortError'));
    expect(toast.mock.calls).toEqual([
      ['error.3', { defaultValue: 'Forbidden' }],
      ['error.genericFetchErrorText', { defaultValue: expect.any(String) }],
    ]);
  });
});

describe('calls in progress', () => {
  it('rises when a call begins and falls when it succeeds or fails', async () => {
    const seen: number[] = [];
    const unsubscribe = api.subscribeInFlight((count) => seen.push(count));
    let answer!: (response: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    fetchMock.mockResolvedValueOnce(envelope(4, 'not_found', 404));

    const first = api.request(getUser, { params: { tenant: 'acme', id: '1' } });
    const second = api.request(getUser, { params: { tenant: 'acme', id: '2' } }).catch((e: unknown) => e);
    expect(api.getInFlight()).toBe(2);
    await second;
    expect(api.getInFlight()).toBe(1);
    answer(json({ id: '1' }));
    await first;
    expect(api.getInFlight()).toBe(0);
    expect(seen).toEqual([1, 2, 1, 0]);

    unsubscribe();
    fetchMock.mockResolvedValueOnce(json({ id: '3' }));
    await api.request(getUser, { params: { tenant: 'acme', id: '3' } });
    expect(seen).toEqual([1, 2, 1, 0]);
  });

  it('does not count silent calls', async () => {
    fetchMock.mockResolvedValue(json({ id: '1' }));
    const call = api.request(getUser, { params: { tenant: 'acme', id: '1' }, silent: true });
    expect(api.getInFlight()).toBe(0);
    await call;
  });

  it('feeds useInFlightCount', async () => {
    let answer!: (response: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const { result } = renderHook(() => api.useInFlightCount());
    expect(result.current).toBe(0);
    let call!: Promise<unknown>;
    act(() => {
      call = api.request(getUser, { params: { tenant: 'acme', id: '1' } });
    });
    expect(result.current).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(async () => {
      answer(json({ id: '1' }));
      await call;
    });
    expect(result.current).toBe(0);
  });
});

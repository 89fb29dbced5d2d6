/**
 * The one fake API of the web tests. Handlers are registered per endpoint descriptor of `@palisade/contracts`,
 * so a handler is typed by the contract (its params, query and body as the server would see them, its answer
 * as the endpoint answers), and every answer is checked against the endpoint's response schema: a fixture that
 * drifted from the contract fails the test and says which field. Requests that break their contract are
 * refused like the server refuses them (400 with details) and fail the test too; requests nobody answers get
 * the 404 envelope and are kept in `unhandled`, so a test can assert that none happened.
 *
 * ```ts
 * const api = fakeApi();
 * api.on(userEndpoints.listUsers, ({ query }) => page(query.q ? [BOB] : [ALICE, BOB]));
 * api.on(userEndpoints.deleteUsers, () => apiError('forbidden'));
 * …
 * expect(api.calls(userEndpoints.deleteUsers)).toHaveLength(0);
 * ```
 */
import {
  type Endpoint,
  ERRORS,
  type ErrorCode,
  type ErrorDetail,
  type ErrorEnvelope,
} from '@palisade/contracts';
import { onTestFinished, vi } from 'vitest';
import type { z } from 'zod';

type Out<S> = NonNullable<S> extends z.ZodType ? z.output<NonNullable<S>> : undefined;

/** A request as a handler sees it: parsed and validated with the endpoint's schemas, as the server does. */
export interface FakeRequest<E extends Endpoint = Endpoint> {
  endpoint: E;
  params: Out<E['params']>;
  query: Out<E['query']>;
  /** The JSON body parsed with the contract; the text of a CSV upload; the form of a multipart one. */
  body: Out<E['body']>;
  method: string;
  url: URL;
  headers: Headers;
}

/** One request the fake API received, answered or not. */
export interface FakeCall<E extends Endpoint = Endpoint> extends FakeRequest<E> {
  /** The status it was answered with. */
  status: number;
  /**
   * The body as the web sent it (the JSON parsed, the text of a CSV upload), before the contract's defaults and
   * transforms: for a test about what the web itself sends (`body` is what the server sees).
   */
  sentBody: unknown;
}

/** A request nobody registered a handler for (answered 404). */
export interface UnhandledCall {
  method: string;
  url: URL;
  /** `GET /api/…` — readable in a failed assertion. */
  summary: string;
}

/** An answer with a status or headers of its own: see {@link reply} and {@link apiError}. */
export class FakeReply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string>,
    /** An error envelope rather than the endpoint's answer. */
    readonly isError: boolean,
  ) {}
}

/**
 * What a handler may answer: the endpoint's response (checked against its schema), a {@link FakeReply}, or a
 * raw `Response` for what is not JSON (a CSV download, a malformed body), which is passed on unchecked.
 */
export type FakeAnswer<E extends Endpoint> = Out<E['response']> | FakeReply | Response;

/** Answers one endpoint. */
export type FakeHandler<E extends Endpoint> = (
  request: FakeRequest<E>,
) => FakeAnswer<E> | Promise<FakeAnswer<E>>;

/** A success answer with another status or extra headers (the body is still checked against the contract). */
export function reply<T>(
  body: T,
  options: { status?: number; headers?: Record<string, string> } = {},
): FakeReply {
  return new FakeReply(options.status ?? 200, body, options.headers ?? {}, false);
}

/** Options of {@link apiError}. */
export interface ApiErrorOptions {
  /** Defaults to the status of the code in the contracts' error catalogue. */
  status?: number;
  message?: string;
  details?: ErrorDetail[];
  /** `policy_tests_failed`: the broken tests. */
  failures?: unknown[];
  /** `Retry-After` and the like. */
  headers?: Record<string, string>;
}

/** An error answer in the API's envelope, with the errcode and status of `code` in the contracts' catalogue. */
export function apiError(code: ErrorCode, options: ApiErrorOptions = {}): FakeReply {
  const known = ERRORS[code];
  const envelope: ErrorEnvelope = {
    errcode: known.errcode,
    code,
    message: options.message ?? code.replaceAll('_', ' '),
    ...(options.details ? { details: options.details } : {}),
    ...(options.failures ? { failures: options.failures } : {}),
  };
  return new FakeReply(options.status ?? known.status, envelope, options.headers ?? {}, true);
}

/** A JSON `Response` for a raw answer (what {@link FakeHandler} passes on unchecked). */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A file answer (CSV export and the like), as the server sends it. */
export function fileResponse(
  text: string,
  filename: string,
  contentType = 'text/csv; charset=utf-8',
): Response {
  return new Response(text, {
    status: 200,
    headers: { 'content-type': contentType, 'content-disposition': `attachment; filename="${filename}"` },
  });
}

interface Route {
  endpoint: Endpoint;
  pattern: RegExp;
  names: string[];
  /** Literal segments: the more, the more specific (`/groups/:tenant/options` before `/groups/:tenant/:id`). */
  literals: number;
  handler: FakeHandler<Endpoint>;
}

/** The API base the client uses (`VITE_API_BASE`, `/api` by default), with the reports base under it. */
function apiBase(): string {
  return (import.meta.env.VITE_API_BASE as string | undefined) ?? '/api';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A matcher for a Fastify-style path (`:name`, `:name?` optional), under the API base or the reports base. */
function compile(path: string): Pick<Route, 'pattern' | 'names' | 'literals'> {
  const names: string[] = [];
  let literals = 0;
  let source = '';
  for (const segment of path.split('/').slice(1)) {
    const param = /^:([A-Za-z_]\w*)(\?)?$/.exec(segment);
    if (!param) {
      literals += 1;
      source += `/${escapeRegExp(segment)}`;
    } else {
      names.push(param[1]);
      source += param[2] ? '(?:/([^/]+))?' : '/([^/]+)';
    }
  }
  return { pattern: new RegExp(`^${escapeRegExp(apiBase())}(?:/reports)?${source}/?$`), names, literals };
}

/** Query values as Fastify hands them to the schema: a repeated key becomes a list. */
function rawQuery(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length > 1 ? values : values[0];
  }
  return query;
}

async function readBody(request: Request): Promise<{ value: unknown; isJson: boolean }> {
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) return { value: await request.formData(), isJson: false };
  const text = await request.text();
  if (text === '') return { value: undefined, isJson: false };
  if (type.includes('json')) return { value: JSON.parse(text), isJson: true };
  return { value: text, isJson: false };
}

/** Zod issues as the server's 400 details: the dotted path under its part, the message key. */
function toDetails(part: string, error: z.ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: [part, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

function describeEndpoint(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.path} (${endpoint.summary})`;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `  - ${issue.path.length > 0 ? issue.path.join('.') : '(answer)'}: ${issue.message}`)
    .join('\n');
}

/** The fake API of one test; see the module comment. */
export interface FakeApi {
  /** Answers `endpoint` with `handler`; a later handler for the same endpoint replaces the earlier one. */
  on<E extends Endpoint>(endpoint: E, handler: FakeHandler<E>): FakeApi;
  /** Every request received, answered or not, in order. */
  readonly requests: ReadonlyArray<FakeCall | UnhandledCall>;
  /** The requests of one endpoint, typed by it. */
  calls<E extends Endpoint>(endpoint: E): FakeCall<E>[];
  /** Requests no handler answered (they got a 404 envelope). */
  readonly unhandled: readonly UnhandledCall[];
  /** What broke a contract so far (drifted answers, refused requests); the test fails with these at its end. */
  readonly problems: readonly string[];
  /**
   * Takes the problem matching `pattern` off the list, for a test about the contract check itself; throws when
   * there is none.
   */
  acknowledge(pattern: RegExp): string;
}

/**
 * Replaces `fetch` with a new fake API for the running test (undone with `vi.unstubAllGlobals()`, and at the
 * end of the test). The test fails at its end when an answer or a request broke its contract.
 */
export function fakeApi(): FakeApi {
  const routes: Route[] = [];
  const requests: Array<FakeCall | UnhandledCall> = [];
  const unhandled: UnhandledCall[] = [];
  const problems: string[] = [];
  const problem = (text: string) => {
    problems.push(text);
    console.error(text);
  };

  const answer = async (request: Request): Promise<Response> => {
    const url = new URL(request.url, window.location.origin);
    const candidates = routes
      .map((route) => ({
        route,
        match: route.endpoint.method === request.method && route.pattern.exec(url.pathname),
      }))
      .filter((candidate): candidate is { route: Route; match: RegExpExecArray } => Boolean(candidate.match));
    if (candidates.length === 0) {
      const call: UnhandledCall = {
        method: request.method,
        url,
        summary: `${request.method} ${url.pathname}${url.search}`,
      };
      requests.push(call);
      unhandled.push(call);
      return jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
    }
    // The most literal pattern wins; among equals, the one registered last.
    const { route, match } = candidates.reduce((best, next) =>
      next.route.literals >= best.route.literals ? next : best,
    );
    const { endpoint } = route;
    const params: Record<string, string> = {};
    route.names.forEach((name, index) => {
      if (match[index + 1] !== undefined) params[name] = decodeURIComponent(match[index + 1]);
    });
    const body = await readBody(request);
    const parts: Array<[string, z.ZodType | undefined, unknown]> = [
      ['params', endpoint.params, params],
      ['querystring', endpoint.query, rawQuery(url)],
      ['body', body.isJson ? endpoint.body : undefined, body.value],
    ];
    const parsed: unknown[] = [];
    const details: ErrorDetail[] = [];
    for (const [part, schema, value] of parts) {
      if (!schema) {
        parsed.push(value);
        continue;
      }
      const result = schema.safeParse(value);
      if (result.success) parsed.push(result.data);
      else details.push(...toDetails(part === 'querystring' ? 'query' : part, result.error));
    }
    const call: FakeCall = {
      endpoint,
      params: parsed[0] as never,
      query: parsed[1] as never,
      body: parsed[2] as never,
      method: request.method,
      url,
      headers: request.headers,
      status: 0,
      sentBody: body.value,
    };
    requests.push(call);
    if (details.length > 0) {
      problem(
        `Fake API: the web sent ${describeEndpoint(endpoint)} a request its contract refuses:\n${details
          .map((detail) => `  - ${detail.path}: ${detail.message}`)
          .join('\n')}`,
      );
      call.status = 400;
      return jsonResponse({ errcode: 2, code: 'validation_failed', message: 'Invalid input.', details }, 400);
    }

    const result = await route.handler(call);
    if (result instanceof Response) {
      call.status = result.status;
      return result;
    }
    const out = result instanceof FakeReply ? result : reply(result, { status: endpoint.status ?? 200 });
    if (!out.isError) {
      const checked = endpoint.response.safeParse(out.body);
      if (!checked.success) {
        problem(
          `Fake API: the answer to ${describeEndpoint(endpoint)} does not match its contract — fix the fixture:\n${describeIssues(checked.error)}`,
        );
      }
    }
    call.status = out.status;
    return jsonResponse(out.body, out.status, out.headers);
  };

  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      request.signal?.throwIfAborted();
      return answer(request);
    }),
  );
  try {
    onTestFinished(() => {
      if (problems.length > 0) throw new Error(problems.join('\n\n'));
    });
  } catch {
    // Created outside a test (a module-level helper): the problems are still printed as they happen.
  }

  const api: FakeApi = {
    on(endpoint, handler) {
      routes.push({ endpoint, ...compile(endpoint.path), handler: handler as FakeHandler<Endpoint> });
      return api;
    },
    requests,
    calls: <E extends Endpoint>(endpoint: E) =>
      requests.filter((call): call is FakeCall<E> => 'endpoint' in call && call.endpoint === endpoint),
    unhandled,
    problems,
    acknowledge(pattern) {
      const index = problems.findIndex((text) => pattern.test(text));
      if (index === -1)
        throw new Error(`Fake API: no problem matches ${pattern}; there are:\n${problems.join('\n')}`);
      return problems.splice(index, 1)[0];
    },
  };
  return api;
}

/** A one-page answer of a keyset-paged list (users, groups, members, events): every item, counted exactly. */
export function keysetPage<T>(items: T[], total = items.length) {
  return { items, total, totalIsEstimate: false, nextCursor: total > items.length ? 'next' : null };
}

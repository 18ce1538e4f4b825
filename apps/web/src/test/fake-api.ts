import { API_PREFIX, authApi, type Route, type RouteAnswer, successSchema } from "@hangar/contract";
import { afterEach, beforeEach, expect, vi } from "vitest";

/**
 * The network boundary of component tests: `fetch` answered by the routes of the contract. Each
 * answer is parsed with the route's success schema, so a fixture cannot drift from what the server
 * sends; each request is checked against the route's params and body schemas, so the web cannot send
 * what the server would refuse without the test failing. Anything else (an unknown request, a drifted
 * answer, a refused body) is a problem, and `installFakeApi` fails the test on it.
 */

/** One request the web made, as the server would read it. */
export interface ApiCall {
  route: Route;
  method: string;
  /** The path after /api/v1. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
}

const FAIL = Symbol("failure");
/** A failing answer, as the server's error handler sends it: `{ detail, code }` with a status. */
export interface Failure {
  [FAIL]: true;
  status: number;
  detail?: string;
  code?: string;
}
export const failure = (status: number, detail?: string, code?: string): Failure => ({
  [FAIL]: true,
  status,
  detail,
  code,
});
const isFailure = (value: unknown): value is Failure => !!value && typeof value === "object" && FAIL in value;

export type Reply<R extends Route> = RouteAnswer<R> | Failure;
export type Handler<R extends Route> = (call: ApiCall) => Reply<R> | Promise<Reply<R>>;

interface Entry {
  route: Route;
  pattern: RegExp;
  names: string[];
  handler: (call: ApiCall) => unknown;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(route: Route): Pick<Entry, "pattern" | "names"> {
  const names: string[] = [];
  const source = route.path
    .split(/(:\w+)/)
    .map((piece) => {
      if (!piece.startsWith(":")) return escapeRegExp(piece);
      names.push(piece.slice(1));
      return "([^/]+)";
    })
    .join("");
  return { pattern: new RegExp(`^${source}$`), names };
}

/** A promise resolved from outside: a handler can hold its answer to show a loading state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export function fakeApi() {
  let entries: Entry[] = [];
  const calls: ApiCall[] = [];
  const problems: string[] = [];

  const api = {
    calls,
    problems,
    /** Answers `route` (the latest registration wins): a fixed answer, or a handler per call. */
    on<R extends Route>(route: R, reply: Reply<R> | Handler<R>): void {
      const handler = typeof reply === "function" ? (reply as Handler<R>) : () => reply;
      entries.unshift({ route, ...compile(route), handler });
    },
    /** The requests made to `route`, oldest first. */
    callsTo(route: Route): ApiCall[] {
      return calls.filter((c) => c.route === route);
    },
    reset(): void {
      entries = [];
      calls.length = 0;
      problems.length = 0;
      api.on(authApi.csrfToken, { data: { csrftoken: "test-csrf-token" } });
    },
    fetch: async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
      const url = new URL(
        typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
        "http://x",
      );
      const method = (init.method ?? "GET").toUpperCase();
      if (!url.pathname.startsWith(API_PREFIX)) {
        problems.push(`${method} ${url.pathname}: not an API call`);
        return new Response(null, { status: 404 });
      }
      const path = url.pathname.slice(API_PREFIX.length);
      let match: { entry: Entry; values: string[] } | null = null;
      for (const entry of entries) {
        const m = entry.route.method === method ? entry.pattern.exec(path) : null;
        if (m) {
          match = { entry, values: m.slice(1) };
          break;
        }
      }
      if (!match) {
        problems.push(`${method} ${path}: no answer set up for it`);
        return json(404, { detail: "Not found (fake API)", code: "NOT_FOUND" });
      }
      const { entry, values } = match;
      const route = entry.route;
      const params = Object.fromEntries(entry.names.map((n, i) => [n, decodeURIComponent(values[i] ?? "")]));
      const body = typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : init.body;
      const call: ApiCall = {
        route,
        method,
        path,
        params,
        query: url.searchParams,
        body,
        headers: new Headers(init.headers),
      };
      calls.push(call);

      const refused = [
        route.params && !route.params.safeParse(params).success && "params",
        route.query && !route.query.safeParse(Object.fromEntries(url.searchParams)).success && "query",
        route.body && route.bodyKind === "json" && !route.body.safeParse(body).success && "body",
      ].filter(Boolean);
      if (refused.length) {
        problems.push(`${method} ${path}: the server would refuse its ${refused.join(", ")}: ${JSON.stringify(body)}`);
        return json(422, { detail: "Validation failed (fake API)", code: "VALIDATION" });
      }

      const answer = await abortable(Promise.resolve(entry.handler(call)), init.signal);
      if (isFailure(answer))
        return json(answer.status, { detail: answer.detail ?? "", ...(answer.code ? { code: answer.code } : {}) });
      if (route.answer === "empty") return new Response(null, { status: 204 });
      const schema = successSchema(route);
      const parsed = schema?.safeParse(answer);
      if (parsed && !parsed.success) {
        problems.push(`${method} ${path}: the answer does not match the contract: ${parsed.error.message}`);
        return json(500, { detail: "Drifted answer (fake API)" });
      }
      return json(200, parsed ? parsed.data : answer);
    },
  };
  api.reset();
  return api;
}

export type FakeApi = ReturnType<typeof fakeApi>;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function abortable<T>(work: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new DOMException("The operation was aborted.", "AbortError"));
    if (signal.aborted) return stop();
    signal.addEventListener("abort", stop, { once: true });
    work.then(resolve, reject);
  });
}

/**
 * A fake API for every test of the file: fresh answers per test (set them with `api.on`), `fetch`
 * replaced while it runs, and the test failed when the web made a request the contract would not
 * have answered.
 */
export function installFakeApi(): FakeApi {
  const api = fakeApi();
  beforeEach(() => {
    api.reset();
    vi.stubGlobal("fetch", api.fetch);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    expect(api.problems, "requests the contract would not have answered so").toEqual([]);
  });
  return api;
}

import {
  API_PREFIX,
  authApi,
  CSRF,
  type FieldError,
  type Route,
  type RouteAnswer,
  type RouteBodyIn,
  type RouteParamsIn,
  type RouteQueryIn,
  successSchema,
} from "@hangar/contract";

/** Every call goes through here: one base path, cookies, JSON, CSRF headers and one error shape. */
export const API_BASE = API_PREFIX;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const CSRF_PATH = authApi.csrfToken.path;

export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly code: string | null;
  readonly errors: FieldError[];
  /** Seconds from a 429's Retry-After header, when given. */
  readonly retryAfter: number | null;

  constructor(init: {
    status: number;
    detail: string;
    code?: string | null;
    errors?: FieldError[];
    retryAfter?: number | null;
  }) {
    super(init.detail);
    this.name = "ApiError";
    this.status = init.status;
    this.detail = init.detail;
    this.code = init.code ?? null;
    this.errors = init.errors ?? [];
    this.retryAfter = init.retryAfter ?? null;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** The text to show for any thrown value: the server's detail when there is one, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.detail) return error.detail;
  return fallback;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";
  /** A plain object is sent as JSON; FormData is sent as multipart (the browser sets the boundary). */
  body?: unknown;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Shown when the answer carries no detail or message. */
  fallback?: string;
}

// The token answered by set-csrf-token; kept in memory only, refetched after sign-in and on CSRF failures.
let csrfToken: string | null = null;
let csrfInFlight: Promise<string> | null = null;

function readCookie(name: string): string | null {
  if (typeof document === "undefined") return null;
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/** Fetches a fresh CSRF token (concurrent callers share one request). */
export function refreshCsrfToken(): Promise<string> {
  if (!csrfInFlight) {
    csrfInFlight = send<{ data?: { csrftoken?: string } }>(CSRF_PATH, { fallback: "Failed to get CSRF token" })
      .then((answer) => {
        const token = answer?.data?.csrftoken;
        if (!token) throw new ApiError({ status: 0, detail: "Failed to get CSRF token" });
        csrfToken = token;
        return token;
      })
      .finally(() => {
        csrfInFlight = null;
      });
  }
  return csrfInFlight;
}

/** Forget the token (sign-out): the next mutation fetches one for the new session. */
export function clearCsrfToken(): void {
  csrfToken = null;
}

async function csrfHeaders(): Promise<Record<string, string>> {
  const token = csrfToken ?? (await refreshCsrfToken());
  return {
    [CSRF.altHeader]: token,
    // The cookie normally mirrors the token; fall back to it when the cookie is unreadable.
    [CSRF.header]: readCookie(CSRF.cookie) ?? token,
  };
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  let url = path.startsWith("http") ? path : `${API_BASE}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.append(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += `${url.includes("?") ? "&" : "?"}${qs}`;
  }
  return url;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function toApiError(response: Response, body: unknown, fallback: string | undefined): ApiError {
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const detail =
    (typeof record.detail === "string" && record.detail) ||
    (typeof record.message === "string" && record.message) ||
    fallback ||
    `Request failed (${response.status})`;
  const errors = Array.isArray(record.errors)
    ? record.errors.filter(
        (e): e is FieldError =>
          !!e && typeof e === "object" && typeof e.field === "string" && typeof e.message === "string",
      )
    : [];
  const retryHeader = response.headers.get("retry-after");
  const retryAfter = retryHeader && /^\d+$/.test(retryHeader) ? Number(retryHeader) : null;
  return new ApiError({
    status: response.status,
    detail,
    code: typeof record.code === "string" ? record.code : null,
    errors,
    retryAfter,
  });
}

async function send<T>(path: string, options: RequestOptions, retried = false): Promise<T> {
  const method = options.method ?? "GET";
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  if (MUTATING.has(method)) Object.assign(headers, await csrfHeaders());

  let response: Response;
  try {
    // No timeout on purpose (spec 01 §9: API timeout none).
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: "include",
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError({ status: 0, detail: options.fallback ?? "Network error: the server could not be reached" });
  }

  const data = await readBody(response);
  if (response.ok) return data as T;

  const error = toApiError(response, data, options.fallback);
  // A stale or missing token: refetch it and try once more (spec 01 §7).
  const csrfFailure = error.code === "CSRF_FAILED" || /csrf/i.test(error.detail);
  if (response.status === 403 && !retried && MUTATING.has(method) && csrfFailure) {
    await refreshCsrfToken();
    return send<T>(path, options, true);
  }
  throw error;
}

type Optional<K extends string, T> = undefined extends T ? { [P in K]?: T } : { [P in K]: T };

/** What a call of `route` takes: its params, query and body as the contract types them. */
export type CallOptions<R extends Route> = Optional<"params", RouteParamsIn<R>> &
  Optional<"query", RouteQueryIn<R>> &
  Optional<"body", R["bodyKind"] extends "multipart" ? FormData : RouteBodyIn<R>> & {
    signal?: AbortSignal;
    /** Shown when the answer carries no detail or message. */
    fallback?: string;
    /** Extra request headers (a share link's password travels only in one). */
    headers?: Record<string, string>;
  };

/** `route.path` with each `:name` replaced by its encoded parameter. */
export function routeUrl(route: Route, params?: Record<string, unknown>): string {
  return route.path.replace(/:(\w+)/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} for ${route.path}`);
    return encodeURIComponent(String(value));
  });
}

export const INVALID_RESPONSE = "Invalid response format from server";

/**
 * Calls a contract route: the URL is built from its path and params, the answer is typed by its
 * success schema. Development builds check the answer against that schema (a drifted server shows
 * at once); production trusts it, to stay lean.
 */
export async function callApi<R extends Route>(route: R, ...[options]: CallArgs<R>): Promise<RouteAnswer<R>> {
  const o = (options ?? {}) as {
    params?: Record<string, unknown>;
    query?: Record<string, QueryValue>;
    body?: unknown;
    signal?: AbortSignal;
    fallback?: string;
    headers?: Record<string, string>;
  };
  const answer = await send<unknown>(routeUrl(route, o.params), {
    method: route.method,
    query: o.query,
    body: o.body,
    signal: o.signal,
    fallback: o.fallback,
    headers: o.headers,
  });
  if (import.meta.env?.DEV && route.answer === "json") {
    const schema = successSchema(route);
    if (schema && !schema.safeParse(answer).success) {
      throw new ApiError({ status: 200, detail: INVALID_RESPONSE, code: "INVALID_RESPONSE" });
    }
  }
  return answer as RouteAnswer<R>;
}

/** The options argument may be left out when nothing in it is required. */
type CallArgs<R extends Route> =
  Record<never, never> extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];

/** Throws "Invalid response format from server" unless a list answer is an array. */
export function expectArray<T>(value: unknown, message: string): T[] {
  if (!Array.isArray(value)) throw new ApiError({ status: 200, detail: message, code: "INVALID_RESPONSE" });
  return value as T[];
}

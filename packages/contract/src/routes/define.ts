import type { z } from "zod";

/** Base path of every API route; route paths below are relative to it. */
export const API_PREFIX = "/api/v1";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call a route (the session hook enforces it before the handler runs):
 * - public: anyone (still CSRF-checked when mutating)
 * - user: any signed-in user
 * - workspace: a signed-in member of the workspace named by the `id` path parameter
 */
export type RouteAccess = "public" | "user" | "workspace";

/**
 * How the request body travels. `json` is validated by the server against `body`; the others are read
 * by the handler itself: `multipart` (form data, the web sends FormData), `json-or-multipart` (either;
 * `body` still types and validates the fields), `raw` (bytes streamed to storage, never parsed), `buffer` (the exact bytes, whole, for a signature
 * over the raw body).
 */
export type BodyKind = "json" | "multipart" | "json-or-multipart" | "raw" | "buffer";

/**
 * What the answer is: JSON described by `response`, bytes (zip, image), nothing (204), a
 * Server-Sent Events stream (`text/event-stream`; each event's data described in the contract), or
 * a redirect (302: a browser's top-level navigation, as single sign-on's start and callback).
 */
export type AnswerKind = "json" | "bytes" | "empty" | "stream" | "redirect";

export interface RouteSpec {
  method: HttpMethod;
  /** Fastify syntax, relative to `/api/v1`, e.g. `/workspaces/:id/boards/:boardId`. */
  path: string;
  /** The OpenAPI tag (one per feature). */
  tag: string;
  /** One line for the OpenAPI document (every route has one: integrators' generated clients show it). */
  summary?: string;
  /**
   * The OpenAPI operationId when the derived one (the tag and the route's key in its group, camelCased:
   * `assetsList`) would not do: two groups sharing a tag and a key.
   */
  operationId?: string;
  /**
   * Error statuses the route's own service can answer beyond those its access, CSRF and input imply
   * (401, 403, 404, 413, 422, 429: apps/server/src/platform/openapi.ts): 409 a conflict, 402 a plan
   * limit, 413 a file too large, 429 a rate limit of its own…, for the OpenAPI document.
   */
  errors?: readonly number[];
  /**
   * A multipart route's form fields, for the OpenAPI document only: the handler reads the parts
   * itself (file parts are `FilePart`).
   */
  form?: z.ZodType;
  /** What a `bytes` answer is (its media types), for the OpenAPI document. */
  produces?: readonly string[];
  access: RouteAccess;
  /**
   * Only a signed-in session may call it, never a personal access token (issue 36): the routes that
   * make bearer secrets (tokens, API keys) or change how one signs in (password, e-mail). A token gets
   * 403 saying so, so a leaked one cannot mint others or lock its owner out. (Workspace API keys
   * follow their scopes: an `admin` key manages its workspace's keys, as an ADMIN would.)
   */
  sessionOnly?: boolean;
  /** Mutations need the CSRF token unless they carry their own proof (signed URLs): set false there. */
  csrf?: boolean;
  /**
   * A POST that only reads (a query too rich for a URL: the asset listing). It changes nothing, so
   * the server does not mark the workspace changed in its read cache after it, as after a mutation.
   */
  reads?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyKind?: BodyKind;
  /**
   * The largest JSON body (bytes) when a route takes more than its default: 2 MB for members, 16 KB
   * for public routes (apps/server/src/platform/body-parsing.ts).
   */
  bodyLimit?: number;
  /** Status → answer schema; the lowest 2xx is the success answer the web client types and checks. */
  response?: Partial<Record<number, z.ZodType>>;
  answer?: AnswerKind;
}

export type Route<S extends RouteSpec = RouteSpec> = S & {
  csrf: boolean;
  bodyKind: BodyKind;
  answer: AnswerKind;
};

const MUTATING: ReadonlySet<HttpMethod> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The key each route has in its group (`assetsApi.list` → "list"), set where apiRoutes gathers them. */
const ROUTE_KEYS = new WeakMap<object, string>();
export function nameRoute<R extends Route>(route: R, key: string): R {
  ROUTE_KEYS.set(route, key);
  return route;
}
export const routeKey = (route: RouteSpec): string | undefined => ROUTE_KEYS.get(route);

/** Fills the defaults: CSRF on every mutation, JSON bodies, JSON answers. */
// Pure, so bundlers drop the route objects (and their schemas) a web chunk never calls.
/*#__NO_SIDE_EFFECTS__*/
export function defineRoute<const S extends RouteSpec>(spec: S): Route<S> {
  return {
    ...spec,
    csrf: spec.csrf ?? MUTATING.has(spec.method),
    bodyKind: spec.bodyKind ?? "json",
    answer: spec.answer ?? "json",
  };
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type In<T> = T extends z.ZodType ? z.input<T> : undefined;

/** Parsed (server-side) shapes. */
export type RouteParamsOut<R extends RouteSpec> = Out<R["params"]>;
export type RouteQueryOut<R extends RouteSpec> = Out<R["query"]>;
export type RouteBodyOut<R extends RouteSpec> = Out<R["body"]>;
/** What a caller sends (client-side) shapes. */
export type RouteParamsIn<R extends RouteSpec> = In<R["params"]>;
export type RouteQueryIn<R extends RouteSpec> = In<R["query"]>;
export type RouteBodyIn<R extends RouteSpec> = In<R["body"]>;

type SuccessSchema<Res> = Res extends { 200: infer S }
  ? S
  : Res extends { 201: infer S }
    ? S
    : Res extends { 204: infer S }
      ? S
      : undefined;
/** The success answer of a route (undefined for byte and empty answers). */
export type RouteAnswer<R extends RouteSpec> = Out<SuccessSchema<R["response"]>>;

/** The success status and schema of a route, if it answers JSON. */
export function successSchema(route: RouteSpec): z.ZodType | undefined {
  if (!route.response) return undefined;
  const codes = Object.keys(route.response)
    .map(Number)
    .filter((c) => c >= 200 && c < 300)
    .sort((a, b) => a - b);
  return codes.length ? route.response[codes[0] as number] : undefined;
}

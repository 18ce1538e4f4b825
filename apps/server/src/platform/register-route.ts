import {
  type Route,
  type RouteAnswer,
  type RouteBodyOut,
  type RouteParamsOut,
  type RouteQueryOut,
  type RouteSpec,
  routeScope,
} from "@hangar/contract";
import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { App } from "./http.ts";

/** The request as a handler sees it: params, query and body already parsed by the route's schemas. */
export type RouteRequest<R extends RouteSpec> = FastifyRequest & {
  params: RouteParamsOut<R>;
  query: RouteQueryOut<R>;
  body: RouteBodyOut<R>;
};

/** A handler answers the route's success shape, or sends through `reply` itself (status, bytes, raw JSON). */
export type RouteHandler<R extends RouteSpec> = (
  req: RouteRequest<R>,
  reply: FastifyReply,
) => RouteAnswer<R> | FastifyReply | Promise<RouteAnswer<R> | FastifyReply>;

/** Largest body a `buffer` route reads (payment-provider events are a few KB; a year of line items stays far below). */
export const BUFFER_BODY_LIMIT = 512 * 1024;

/**
 * Registers one contract route (`app` is the `/api/v1`-prefixed instance): its schemas drive
 * validation, serialisation and OpenAPI; `access` and `csrf` go to `config` for the session hook, and
 * the route itself for the OpenAPI document (platform/openapi.ts).
 * Bodies the handler reads itself (multipart, raw bytes) get no body schema.
 */
export function addRoute<const R extends Route>(app: App, route: R, handler: RouteHandler<R>): void {
  // Validation and serialisation only; the OpenAPI document adds the rest from `config.route` (openapi.ts).
  const schema: Record<string, unknown> = {};
  const scope = routeScope(route);
  if (route.params) schema.params = route.params;
  if (route.query) schema.querystring = route.query;
  if (route.body && route.bodyKind === "json") schema.body = route.body;
  if (route.bodyKind === "multipart") schema.consumes = ["multipart/form-data"];
  if (route.response) schema.response = route.response;
  const options = {
    method: route.method,
    url: route.path,
    config: { access: route.access, csrf: route.csrf, reads: route.reads ?? false, scope, route },
    schema,
    handler,
    ...(route.bodyLimit !== undefined ? { bodyLimit: route.bodyLimit } : {}),
  } as unknown as RouteOptions;
  if (route.bodyKind === "buffer") {
    // The exact bytes, whole (a signature over the raw body must see what was signed, not a
    // re-serialised parse), for this route alone and bounded: provider events are a few KB.
    app.register(async (bytes) => {
      bytes.removeAllContentTypeParsers();
      bytes.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BUFFER_BODY_LIMIT }, (_req, body, done) =>
        done(null, body),
      );
      bytes.route(options);
    });
    return;
  }
  if (route.bodyKind !== "raw") {
    app.route(options);
    return;
  }
  // Raw bytes: the body stream goes to storage as it arrives, never whole into memory, so this
  // route alone (its own encapsulated context) parses nothing.
  app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser("*", (_req, _payload, done) => done(null));
    raw.route(options);
  });
}

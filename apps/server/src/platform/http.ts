import type { ApiScope, Route, RouteAccess } from "@hangar/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Actor } from "./actor.ts";

/** How a route is reached (public / user / workspace): declared by each contract route. */
export type { RouteAccess };

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Mutating routes skip the CSRF check only when they carry their own proof (signed URLs). */
    csrf?: boolean;
    /** A POST that only reads (contract `reads`): no read-your-writes bump after it. */
    reads?: boolean;
    /** The scope an API key needs for this route (contract `routeScope`; null: no key may call it). */
    scope?: ApiScope | null;
    /** The contract route, for the OpenAPI document (platform/openapi.ts). */
    route?: Route;
  }
  interface FastifyRequest {
    actor: Actor;
  }
}

export type App = FastifyInstance<
  import("node:http").Server,
  import("node:http").IncomingMessage,
  import("node:http").ServerResponse,
  import("fastify").FastifyBaseLogger,
  ZodTypeProvider
>;

export type Req = FastifyRequest;
export type Reply = FastifyReply;

export const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function clientIp(req: FastifyRequest): string {
  return req.ip ?? "unknown";
}

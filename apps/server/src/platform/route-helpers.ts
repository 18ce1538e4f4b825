import type { FastifyRequest } from "fastify";
import type { UserActor } from "./actor.ts";
import { unauthenticated } from "./errors.ts";

/** The signed-in caller; the session hook has already answered 401 on routes that need one. */
export function userOf(req: FastifyRequest): UserActor {
  if (req.actor.kind !== "user") throw unauthenticated();
  return req.actor;
}

export function metaOf(req: FastifyRequest) {
  return { ip: req.ip, userAgent: req.headers["user-agent"] ?? null };
}

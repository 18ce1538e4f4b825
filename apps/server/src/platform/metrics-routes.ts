import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Metrics } from "./metrics.ts";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** With a token: the bearer must match. Without: only callers on this machine (the socket, not X-Forwarded-For). */
export function metricsAllowed(req: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const given = Buffer.from((req.headers.authorization ?? "").replace(/^Bearer\s+/i, ""));
    const want = Buffer.from(token);
    return given.length === want.length && timingSafeEqual(given, want);
  }
  return LOOPBACK.has(req.socket.remoteAddress ?? "");
}

/**
 * Latency of every request by route pattern (unmatched ones share one label), and `GET /metrics`
 * in the Prometheus text format. A caller that may not see it gets the same 404 as any unknown path.
 */
export function installMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  app.addHook("onResponse", async (req, reply) => {
    const route = req.routeOptions.url ?? "(unmatched)";
    if (route === "/metrics") return;
    metrics.observeHttp(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get("/metrics", { config: { access: "public" } }, async (req, reply) => {
    if (!metricsAllowed(req, token)) {
      return reply.status(404).send({ detail: `No route GET /metrics.`, code: "NOT_FOUND" });
    }
    return reply.header("Content-Type", metrics.registry.contentType).send(await metrics.render());
  });
}

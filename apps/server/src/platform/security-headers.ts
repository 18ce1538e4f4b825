import type { FastifyInstance } from "fastify";
import helmet from "helmet";
import { API_PREFIX } from "./session-hook.ts";

const HSTS = "max-age=15552000; includeSubDomains";

/**
 * Security headers on every answer. helmet's middleware is built once (the @fastify/helmet wrapper
 * rebuilt it on every request: ~6% of a cached asset GET's CPU). HSTS only over https: over plain
 * http a browser ignores it, and it would pin a development host to https.
 * API JSON answers are never stored by a browser or proxy (they carry private data).
 */
export function installSecurityHeaders(app: FastifyInstance, connectOrigins: string[]) {
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", "data:", "blob:"],
        mediaSrc: ["'self'", "blob:"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        // S3 storage: uploads PUT to, and downloads fetch from, presigned URLs on the bucket's origin.
        connectSrc: ["'self'", ...connectOrigins],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
  app.addHook("onRequest", (req, reply, done) => {
    if (req.protocol === "https") reply.header("Strict-Transport-Security", HSTS);
    securityHeaders(req.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
  app.addHook("onSend", async (req, reply, payload) => {
    if (req.url.startsWith(`${API_PREFIX}/`) && !reply.hasHeader("Cache-Control")) {
      const type = String(reply.getHeader("Content-Type") ?? "");
      if (type.startsWith("application/json")) reply.header("Cache-Control", "no-store");
    }
    return payload;
  });
}

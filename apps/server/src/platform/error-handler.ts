import type { ErrorBody, FieldError } from "@hangar/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError } from "./errors.ts";

const DB_DOWN_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08006",
  "53300",
]);

function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  const e = err as { code?: string; message?: string; cause?: unknown } | null;
  if (!e || depth > 3) return false;
  return (
    (e.code !== undefined && DB_DOWN_CODES.has(e.code)) ||
    // A connection that dropped mid-query (the server stopping under load) says so in several ways.
    /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|not queryable|server closed the connection|EPIPE/i.test(
      e.message ?? "",
    ) ||
    isDatabaseUnavailable(e.cause, depth + 1)
  );
}

function fieldName(context: string | undefined, instancePath: string): string {
  const path = instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (path) return path;
  return context ?? "body";
}

/** One error model (docs/architecture.md §3–4): every failure answers `{detail, code}`; 500s hide internals. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const send = (status: number, body: ErrorBody) => reply.status(status).send(body);

    if (err instanceof AppError) {
      if (err.extra.retryAfterSeconds) reply.header("Retry-After", String(err.extra.retryAfterSeconds));
      return send(err.status, {
        detail: err.detail,
        code: err.code,
        ...(err.extra.errors ? { errors: err.extra.errors } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(err) || err.validation) {
      const errors: FieldError[] = (err.validation ?? []).map((v) => ({
        field: fieldName(err.validationContext, v.instancePath),
        message: v.message ?? "Invalid value",
      }));
      const names = [...new Set(errors.map((e) => e.field))].join(", ");
      return send(422, {
        detail: `Invalid request: ${names || "malformed input"}.`,
        code: "VALIDATION_FAILED",
        errors,
      });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err: { message: err.message, cause: String(err.cause) } }, "response did not match its schema");
      return send(500, { detail: "Internal server error.", code: "INTERNAL", request_id: req.id });
    }
    if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return send(413, { detail: "The request body is too large.", code: "PAYLOAD_TOO_LARGE" });
    }
    if (err.code === "FST_REQ_FILE_TOO_LARGE" || err.statusCode === 413) {
      return send(413, { detail: "The file is too large.", code: "PAYLOAD_TOO_LARGE" });
    }
    if (err.statusCode === 415) {
      const type =
        String(req.headers["content-type"] ?? "")
          .split(";")[0]
          ?.trim() || "none";
      return send(415, {
        detail: `Unsupported content type (${type.slice(0, 100)}): send application/json.`,
        code: "UNSUPPORTED_MEDIA_TYPE",
      });
    }
    if (isDatabaseUnavailable(err)) {
      req.log.error({ err: { message: err.message, code: err.code } }, "database unavailable");
      reply.header("Retry-After", "5");
      return send(503, {
        detail: "The service is temporarily unavailable. Try again shortly.",
        code: "SERVICE_UNAVAILABLE",
      });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      const code = err.statusCode === 404 ? "NOT_FOUND" : err.statusCode === 429 ? "RATE_LIMITED" : "BAD_REQUEST";
      return send(err.statusCode === 404 || err.statusCode === 429 ? err.statusCode : 400, {
        detail: err.message,
        code,
      });
    }
    req.log.error({ err }, "unexpected error");
    return send(500, { detail: "Internal server error.", code: "INTERNAL", request_id: req.id });
  });
}

/** Fastify's `frameworkErrors`: a path it cannot decode (bad percent-encoding) answers our shape. */
export function badUrl(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  const body: ErrorBody = {
    detail: err.code === "FST_ERR_BAD_URL" ? "The URL is not validly encoded." : "The request is malformed.",
    code: "BAD_REQUEST",
  };
  reply.status(400).send(body);
}

/** 404 for anything unrouted; when an SPA file is given, browser paths get it instead (client routing). */
export function installNotFound(app: FastifyInstance, spaIndex: string | null) {
  app.setNotFoundHandler((req, reply) => {
    const p = req.url.split("?")[0] ?? "/";
    if (spaIndex && req.method === "GET" && !p.startsWith("/api/") && !p.startsWith("/media/")) {
      return reply.header("Cache-Control", "no-cache").sendFile(spaIndex);
    }
    return reply.status(404).send({ detail: `No route ${req.method} ${p}.`, code: "NOT_FOUND" } satisfies ErrorBody);
  });
}

import { appendFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { API_PREFIX, apiRoutes, type Route } from "@hangar/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../src/db/db.ts";

/**
 * The route-coverage gate (issue 34): every test app records which contract route answered and with
 * what status; when the whole API suite has run, the global teardown fails the run for a route that
 * never answered with success, or (a route with a JSON body) never refused a body with 422. A route
 * added without a test of its success and of its validation is caught here.
 */

/** Routes whose success no API test can reach from here, each with the reason. */
export const SUCCESS_EXEMPT: Record<string, string> = {};

/** Routes with a body whose 422 is unreachable (every body the schema accepts), each with the reason. */
export const INVALID_EXEMPT: Record<string, string> = {};

/**
 * Mutating routes whose success changes nothing the audit log records (issue 36), each with the reason.
 * Every other mutating route must have written an audit row in at least one successful call.
 */
export const AUDIT_EXEMPT: Record<string, string> = {
  "PUT /uploads/:uploadId/parts/:partNumber":
    "bytes of an upload; the asset's creation (start) and completion are recorded, a multipart part is not",
  "POST /users/resend-verification": "sends a mail again; nothing changes but the mail log",
  "POST /users/forgot-password":
    "answers alike for unknown addresses (nothing to record); a known one's reset token is recorded (email_tokens)",
  "POST /workspaces/:id/billing/preview": "prices a change without making it",
  "POST /workspaces/:id/webhooks/:hookId/test":
    "one delivery attempt, kept in the endpoint's delivery log; nothing changes",
  "POST /workspaces/:id/webhooks/:hookId/deliveries/:deliveryId/redeliver":
    "one delivery attempt again, kept in the endpoint's delivery log; nothing in the workspace changes",
  "POST /workspaces/:id/billing/portal":
    "answers the payment provider's portal URL; the provider's events are recorded when they change the plan",
};

export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Records `METHOD /contract/path → status` for each answer of `app`, appended to `dir` as it goes; for
 * a mutation that succeeded, also how many audit rows its request wrote (`audited`).
 */
export function recordRouteStatuses(app: FastifyInstance, dir: string | undefined, db?: Db) {
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${process.pid}.jsonl`);
  // On the raw response's close rather than onResponse: a hijacked answer (the live-events stream)
  // never reaches Fastify's response hooks, and a stream a client leaves ends without them.
  app.addHook("onRequest", async (req, reply) => {
    const url = req.routeOptions.url;
    if (!url?.startsWith(API_PREFIX)) return;
    const route = `${req.method} ${url.slice(API_PREFIX.length)}`;
    reply.raw.once("close", async () => {
      const status = reply.raw.statusCode;
      let audited: number | undefined;
      if (db && MUTATING.has(req.method) && status >= 200 && status < 400 && !req.routeOptions.config.reads) {
        try {
          const r = await db
            .selectFrom("audit_events")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("request_id", "=", req.id)
            .executeTakeFirst();
          audited = Number(r?.n ?? 0);
        } catch {
          audited = undefined; // the env closing under a last request: not counted either way
        }
      }
      appendFileSync(file, `${JSON.stringify({ route, status, ...(audited !== undefined ? { audited } : {}) })}\n`);
    });
  });
}

export interface CoverageGaps {
  noSuccess: string[];
  noInvalid: string[];
  /** Mutating routes that succeeded without ever writing an audit row. */
  noAudit: string[];
}

/** What the recorded answers lack, route by route, against the contract. */
export function coverageGaps(dir: string, routes: readonly Route[] = apiRoutes): CoverageGaps {
  const seen = new Map<string, Set<number>>();
  const audited = new Map<string, number>();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  } catch {
    files = [];
  }
  for (const f of files)
    for (const line of readFileSync(path.join(dir, f), "utf8").split("\n")) {
      if (!line) continue;
      const { route, status, audited: n } = JSON.parse(line) as { route: string; status: number; audited?: number };
      if (n !== undefined) audited.set(route, Math.max(audited.get(route) ?? 0, n));
      const statuses = seen.get(route) ?? new Set<number>();
      statuses.add(status);
      seen.set(route, statuses);
    }
  const noSuccess: string[] = [];
  const noInvalid: string[] = [];
  const noAudit: string[] = [];
  for (const r of routes) {
    const key = routeKey(r);
    const statuses = [...(seen.get(key) ?? [])];
    if (!statuses.some((s) => s >= 200 && s < 400) && !SUCCESS_EXEMPT[key]) noSuccess.push(key);
    if (r.body && r.bodyKind === "json" && !statuses.includes(422) && !INVALID_EXEMPT[key]) noInvalid.push(key);
    const mutates = MUTATING.has(r.method) && !r.reads;
    if (mutates && audited.has(key) && audited.get(key) === 0 && !AUDIT_EXEMPT[key]) noAudit.push(key);
  }
  return { noSuccess, noInvalid, noAudit };
}

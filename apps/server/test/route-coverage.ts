import { appendFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { API_PREFIX, apiRoutes, type Route } from "@hangar/contract";
import type { FastifyInstance } from "fastify";

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

export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** Records `METHOD /contract/path → status` for each answer of `app`, appended to `dir` as it goes. */
export function recordRouteStatuses(app: FastifyInstance, dir: string | undefined) {
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${process.pid}.jsonl`);
  // On the raw response's close rather than onResponse: a hijacked answer (the live-events stream)
  // never reaches Fastify's response hooks, and a stream a client leaves ends without them.
  app.addHook("onRequest", async (req, reply) => {
    const url = req.routeOptions.url;
    if (!url?.startsWith(API_PREFIX)) return;
    const route = `${req.method} ${url.slice(API_PREFIX.length)}`;
    reply.raw.once("close", () => {
      appendFileSync(file, `${JSON.stringify({ route, status: reply.raw.statusCode })}\n`);
    });
  });
}

export interface CoverageGaps {
  noSuccess: string[];
  noInvalid: string[];
}

/** What the recorded answers lack, route by route, against the contract. */
export function coverageGaps(dir: string, routes: readonly Route[] = apiRoutes): CoverageGaps {
  const seen = new Map<string, Set<number>>();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  } catch {
    files = [];
  }
  for (const f of files)
    for (const line of readFileSync(path.join(dir, f), "utf8").split("\n")) {
      if (!line) continue;
      const { route, status } = JSON.parse(line) as { route: string; status: number };
      const statuses = seen.get(route) ?? new Set<number>();
      statuses.add(status);
      seen.set(route, statuses);
    }
  const noSuccess: string[] = [];
  const noInvalid: string[] = [];
  for (const r of routes) {
    const key = routeKey(r);
    const statuses = [...(seen.get(key) ?? [])];
    if (!statuses.some((s) => s >= 200 && s < 400) && !SUCCESS_EXEMPT[key]) noSuccess.push(key);
    if (r.body && r.bodyKind === "json" && !statuses.includes(422) && !INVALID_EXEMPT[key]) noInvalid.push(key);
  }
  return { noSuccess, noInvalid };
}

import { randomUUID } from "node:crypto";
import { type RawBuilder, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv } from "../../../test/harness.ts";
import type { Db } from "../../db/db.ts";
import { CACHE_TRIGGERS, CACHE_TRUNCATE_TRIGGER, type CacheInvalidation } from "../../platform/read-cache.ts";
import { assetsRepo } from "./repo.ts";
import { ASSET_VIEW_READS } from "./view.ts";
import { assetViewSql, plainPageIds } from "./view-repo.ts";

/**
 * The read cache keeps asset answers until a NOTIFY says a table they read changed. This proves,
 * against the real database, that every table the asset view's statement reads (as the planner
 * sees it: EXPLAIN's relations, subqueries included) is declared with the read model and has the
 * trigger its declaration names, so a table joined into the answer without one fails here.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({}, { work: false });
});
afterAll(() => env.close());

interface PlanNode {
  "Relation Name"?: string;
  Plans?: PlanNode[];
}
const relations = (n: PlanNode): string[] => [
  ...(n["Relation Name"] ? [n["Relation Name"]] : []),
  ...(n.Plans ?? []).flatMap(relations),
];

/** Every table a statement reads, from its plan. */
async function tablesRead(db: Db, query: RawBuilder<unknown>): Promise<string[]> {
  const r = await sql<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>`EXPLAIN (FORMAT JSON) ${query}`.execute(db);
  return [...new Set(r.rows[0]!["QUERY PLAN"].flatMap((p) => relations(p.Plan)))].sort();
}

const ROW_EVENTS = 4 | 8 | 16; // pg_trigger.tgtype: INSERT, DELETE, UPDATE
const TRUNCATE = 32;

/** What keeps `query`'s cached answer from going stale silently: one line per table without a path. */
async function invalidationGaps(
  db: Db,
  query: RawBuilder<unknown>,
  declared: Record<string, CacheInvalidation>,
): Promise<string[]> {
  const tables = await tablesRead(db, query);
  const triggers = await sql<{ table: string; fn: string; type: number }>`
    SELECT c.relname AS table, p.proname AS fn, t.tgtype::int AS type
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' AND c.relname = ANY(${tables}::text[])`.execute(db);
  const has = (table: string, fn: string, events: number) =>
    triggers.rows.some((t) => t.table === table && t.fn === fn && (t.type & events) === events);
  const gaps: string[] = [];
  for (const table of tables) {
    const path = declared[table];
    if (!path) {
      gaps.push(`${table}: read but not declared`);
      continue;
    }
    if (!has(table, CACHE_TRIGGERS[path], ROW_EVENTS)) gaps.push(`${table}: no ${CACHE_TRIGGERS[path]} trigger`);
    if (!has(table, CACHE_TRUNCATE_TRIGGER, TRUNCATE)) gaps.push(`${table}: no TRUNCATE trigger`);
  }
  return gaps;
}

describe("the asset view's cache invalidation", () => {
  const view = () => assetViewSql(plainPageIds(assetsRepo.liveIdSql(randomUUID(), randomUUID())), randomUUID());

  it("declares every table the asset answer reads, each with its NOTIFY trigger", async () => {
    const tables = await tablesRead(env.rt.db, view());
    // The planner sees the relations of every subquery (tags, AI tags, boards, favourites).
    expect(tables).toEqual(expect.arrayContaining(["ai_tags", "asset_favorites", "assets", "board_assets", "boards"]));
    expect(tables).toEqual(expect.arrayContaining(["asset_tags", "tags"]));
    expect(await invalidationGaps(env.rt.db, view(), ASSET_VIEW_READS)).toEqual([]);
  });

  it("fails for a table joined into the answer without a declaration or a trigger", async () => {
    // A test-only view: the asset view plus a table no cache trigger watches (uploads).
    const joined = sql`SELECT v.*, (SELECT count(*) FROM uploads u WHERE u.asset_id = v.id) AS uploads
      FROM (${view()}) v`;
    expect(await invalidationGaps(env.rt.db, joined, ASSET_VIEW_READS)).toEqual(["uploads: read but not declared"]);
    // Declared is not enough: the trigger must be there.
    expect(await invalidationGaps(env.rt.db, joined, { ...ASSET_VIEW_READS, uploads: "asset_id" })).toEqual([
      "uploads: no hangar_cache_by_asset trigger",
      "uploads: no TRUNCATE trigger",
    ]);
    // And it must be the declared path: assets keyed by asset would be the wrong trigger.
    expect(await invalidationGaps(env.rt.db, view(), { ...ASSET_VIEW_READS, assets: "asset_id" })).toEqual([
      "assets: no hangar_cache_by_asset trigger",
    ]);
  });
});

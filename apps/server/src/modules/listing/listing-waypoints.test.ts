import { AssetListBody, type AssetListInput, type ListingOrder } from "@hangar/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import type { UserActor } from "../../platform/actor.ts";
import { assetViewRepo } from "../assets/index.ts";
import { listingOrder, listingWhere } from "./filters-repo.ts";
import { pageIdsSql } from "./repo.ts";
import { seekPageIds } from "./seek-repo.ts";
import { createListingService } from "./service.ts";
import { createWaypoints, WAYPOINT_MIN_OFFSET } from "./waypoints.ts";

/**
 * Deep pages of a scroll continue from where the previous page ended (waypoints.ts): on 3,000 assets
 * with ties in every order key, each page of a scroll equals plain OFFSET, filtered or not, in every
 * order a waypoint serves; and a change to the workspace drops the waypoints at once.
 */
let env: TestEnv;
let ws: string;
let admin: Client;
let actor: UserActor;
const N = 3_000;
const PAGE = 100;

beforeAll(async () => {
  env = await createTestEnv({}, { work: false });
  const w = await workspaceWith(env);
  ws = w.ws.id;
  admin = w.admin.client;
  actor = { kind: "user", userId: w.admin.user.id, sessionId: "test", user: w.admin.user };
  // Names, sizes, upload and taken instants repeat (ties broken by id); a third are videos; the
  // videos and every seventh asset have no date taken (they sort last either way).
  await sql`
    INSERT INTO assets (workspace_id, name, status, is_temp, file_type, file_extension, size, date_uploaded, date_taken)
    SELECT ${ws}::uuid, 'shot ' || (i % 700), 'COMPLETED', false,
      CASE WHEN i % 3 = 0 THEN 'VIDEO' ELSE 'IMAGE' END, CASE WHEN i % 3 = 0 THEN 'mp4' ELSE 'jpg' END,
      (i * 7) % 500, timestamptz '2026-05-01T00:00:00Z' + (i % 400) * interval '1 minute',
      CASE WHEN i % 3 = 0 OR i % 7 = 0 THEN NULL ELSE timestamptz '2024-01-01T00:00:00Z' + (i % 300) * interval '1 hour' END
    FROM generate_series(1, ${N}) i`.execute(env.rt.db);
  await sql`ANALYZE assets`.execute(env.rt.db);
}, 120_000);
afterAll(() => env.close());

/** The page by plain OFFSET: the reference. */
async function offsetIds(body: AssetListBody) {
  const where = listingWhere(body, { workspaceId: ws, userId: actor.userId });
  const r = await pageIdsSql(
    where,
    listingOrder(body.order_by),
    body.page_size,
    (body.page - 1) * body.page_size,
  ).execute(env.rt.db);
  return r.rows.map((x) => x.id);
}

/** A listing service whose waypoints say how often a page started from one. */
function counted() {
  const waypoints = createWaypoints(env.rt.cache);
  const seen = { from: 0 };
  const nearest = waypoints.nearest;
  waypoints.nearest = (...args) => {
    const w = nearest(...args);
    if (w) seen.from++;
    return w;
  };
  const deps = { db: env.rt.db, access: env.rt.access, signer: env.rt.signer, assertBoard: async () => {} };
  return { service: createListingService({ ...deps, waypoints }), seen };
}

describe("waypoints", () => {
  it("continues a scroll from each page's end, equal to OFFSET, in every order, filtered or not", async () => {
    const orders: ListingOrder[] = [
      "-date_uploaded",
      "date_uploaded",
      "name",
      "-name",
      "size",
      "-size",
      "-file_type",
      "-date_taken",
      "date_taken",
    ];
    const filters: AssetListInput[] = [{}, { file_type: { includes: ["IMAGE"] } }, { search: "shot" }];
    for (const order of orders)
      for (const filter of filters) {
        const { service, seen } = counted();
        let pages = 0;
        for (let page = 1; ; page++) {
          const body = AssetListBody.parse({ ...filter, order_by: order, page, page_size: PAGE });
          const got = await service.list(actor, ws, body);
          expect(
            got.data.map((a) => a.id),
            `${order} ${JSON.stringify(filter)} page ${page}`,
          ).toEqual(await offsetIds(body));
          pages = page;
          if (!got.pagination.has_more) break;
        }
        // Every page from WAYPOINT_MIN_OFFSET on started from the one before it.
        const deep = pages - WAYPOINT_MIN_OFFSET / PAGE;
        expect(seen.from, `${order} ${JSON.stringify(filter)}`).toBe(deep);
        expect(deep).toBeGreaterThan(5);
      }
  }, 180_000); // 27 scrolls of 30 pages, each page beside its OFFSET reference

  it("seeks from any waypoint to the very page OFFSET gives, for each order and filter", async () => {
    const scope = { workspaceId: ws, userId: actor.userId };
    for (const order of ["-date_uploaded", "name", "-size", "file_type", "-date_taken", "date_taken"] as ListingOrder[])
      for (const filter of [{}, { file_type: { includes: ["IMAGE"] } }, { search: "shot" }] as AssetListInput[]) {
        const whole = AssetListBody.parse({ ...filter, order_by: order });
        const all = (
          await pageIdsSql(listingWhere(whole, scope), listingOrder(order), N, 0).execute(env.rt.db)
        ).rows.map((r) => r.id);
        // By date taken the 1,714 dated (all IMAGEs) come first: from a dated asset to a page among
        // the dated, across the edge (1,700–1,799) and among the undated, and from an undated one.
        for (const [from, page] of [
          [1_000, 11],
          [1_050, 12],
          [1_500, 19],
          [1_100, 18],
          [1_800, 20],
        ] as const) {
          const body = AssetListBody.parse({ ...filter, order_by: order, page, page_size: PAGE });
          const offset = (page - 1) * PAGE;
          const last = await env.rt.db
            .selectFrom("assets")
            .select("date_taken")
            .where("id", "=", all[from - 1]!)
            .executeTakeFirstOrThrow();
          const ids = seekPageIds(
            body,
            scope,
            { id: all[from - 1]!, nullKey: last.date_taken === null },
            offset - from,
          );
          const rows = await assetViewRepo.rows(env.rt.db, ids, actor.userId);
          const want = all.slice(offset, offset + PAGE + 1);
          expect(
            rows.map((r) => r.id),
            `${order} ${JSON.stringify(filter)} from ${from}`,
          ).toEqual(want);
        }
      }
  });

  it("a jump to a deep page, with no waypoint at or before it, walks its offset", async () => {
    const { service, seen } = counted();
    const jump = AssetListBody.parse({
      file_extension: { includes: ["jpg"] },
      order_by: "name",
      page: 20,
      page_size: PAGE,
    });
    expect((await service.list(actor, ws, jump)).data.map((a) => a.id)).toEqual(await offsetIds(jump));
    expect(seen.from).toBe(0);
  });

  it("a listing, a POST that only reads, leaves the workspace's cached reads (and waypoints) alone", async () => {
    const cache = env.rt.cache;
    expect(cache.live).toBe(true);
    cache.set("test:probe", 1, [`w:${ws}`], cache.snapshot());
    expect((await admin.post(`/workspaces/${ws}/assets`, { page: 2 })).statusCode).toBe(200);
    expect(cache.get("test:probe")).toBe(1);
    // A mutation of the workspace does mark it changed.
    const [first] = await offsetIds(AssetListBody.parse({ order_by: "name" }));
    expect((await admin.put(`/workspaces/${ws}/assets/${first}`, { description: "x" })).statusCode).toBe(200);
    expect(cache.get("test:probe")).toBeUndefined();
  });

  it("drops every waypoint of the workspace when anything in it changes", async () => {
    const { service, seen } = counted();
    const body = (page: number) => AssetListBody.parse({ order_by: "name", page, page_size: PAGE });
    for (let page = 1; page <= 12; page++) await service.list(actor, ws, body(page));
    expect(seen.from).toBe(2); // pages 11 and 12
    // The first asset by name leaves (this process's own change: the cache hears it at once).
    const [first] = await offsetIds(body(1));
    expect((await admin.del(`/workspaces/${ws}/assets`, { asset_ids: [first] })).statusCode).toBe(200);
    const after = await service.list(actor, ws, body(13));
    expect(seen.from).toBe(2);
    expect(after.data.map((a) => a.id)).toEqual(await offsetIds(body(13)));
    await sql`UPDATE assets SET deleted_at = NULL WHERE id = ${first}`.execute(env.rt.db);
  });
});

import { AssetListBody, type AssetListInput, EXACT_COUNT_LIMIT, type ListingOrder } from "@hangar/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import type { UserActor } from "../../platform/actor.ts";
import { assetViewRepo, plainPageIds } from "../assets/index.ts";
import { LISTABLE, listingOrder, listingWhere } from "./filters-repo.ts";
import {
  DAY_SKIP_MIN_OFFSET,
  dayPageIdsSql,
  filteredPageIds,
  guardedPageIds,
  PROBE_LIMIT,
  pageIdsSql,
  probePageIds,
} from "./repo.ts";
import { createListingService } from "./service.ts";

/**
 * The listing's scale machinery on a workspace of 12,000 assets: asset_list_days kept by triggers,
 * deep pages that skip whole days (checked against plain OFFSET), and the counting strategy.
 */
let env: TestEnv;
let ws: string;
let admin: Client;
let actor: UserActor;
const LISTED = 12_000;

beforeAll(async () => {
  env = await createTestEnv({}, { work: false });
  const w = await workspaceWith(env);
  ws = w.ws.id;
  admin = w.admin.client;
  actor = { kind: "user", userId: w.admin.user.id, sessionId: "test", user: w.admin.user };
  // 12,000 listable assets over ~20 days, unevenly: a burst of 3,000 within 50 seconds of one day,
  // the rest on whole hours (midnight UTC included) with up to three sharing an instant, so ties and
  // day edges both occur. 11,000 images, 1,000 videos. Then 100 that are not listed (temporary, deleted).
  await sql`
    INSERT INTO assets (workspace_id, name, status, is_temp, file_type, file_extension, camera_make, size, date_uploaded)
    SELECT ${ws}::uuid, CASE WHEN i % 12 = 0 THEN 'clip ' ELSE 'asset ' END || i, 'COMPLETED', false,
      CASE WHEN i % 12 = 0 THEN 'VIDEO' ELSE 'IMAGE' END, CASE WHEN i % 12 = 0 THEN 'mp4' ELSE 'jpg' END,
      CASE WHEN i % 12 = 0 THEN NULL ELSE 'Canon' END, i,
      CASE WHEN i < 3000 THEN timestamptz '2026-03-05T12:00:00Z' + (i % 50) * interval '1 second'
           ELSE timestamptz '2026-03-01T00:00:00Z' + ((i * 7919) % 480) * interval '1 hour' + (i % 3) * interval '1 second' END
    FROM generate_series(0, ${LISTED - 1}) i`.execute(env.rt.db);
  await sql`
    INSERT INTO assets (workspace_id, name, status, is_temp, deleted_at, date_uploaded)
    SELECT ${ws}::uuid, 'hidden ' || i, 'COMPLETED', i % 2 = 0, CASE WHEN i % 2 = 1 THEN now() END,
      timestamptz '2026-03-01T00:00:00Z' + i * interval '5 hours'
    FROM generate_series(1, 100) i`.execute(env.rt.db);
  // Another workspace of documents, so this one's mix differs from the server's: without statistics on
  // (workspace, type) the planner took the server-wide share of images for this workspace's.
  const other = (await workspaceWith(env)).ws.id;
  await sql`
    INSERT INTO assets (workspace_id, name, status, is_temp, file_type, file_extension, size, date_uploaded)
    SELECT ${other}::uuid, 'doc ' || i, 'COMPLETED', false, 'DOCUMENT', 'pdf', i, timestamptz '2026-03-01T00:00:00Z'
    FROM generate_series(1, 20000) i`.execute(env.rt.db);
  await sql`ANALYZE assets`.execute(env.rt.db);
}, 120_000);
afterAll(() => env.close());

const list = (body: Record<string, unknown>) => admin.post(`/workspaces/${ws}/assets`, body);

/** asset_list_days (zeros left out) and the same counted from the assets: they must agree. */
async function daysAndRecount(workspaceId = ws) {
  const db = env.rt.db;
  const days = await sql<{ day: string; n: number }>`
    SELECT day::text, n FROM asset_list_days WHERE workspace_id = ${workspaceId} AND n <> 0 ORDER BY day`.execute(db);
  const recount = await sql<{ day: string; n: number }>`
    SELECT hangar_upload_day(a.date_uploaded)::text AS day, count(*)::int AS n FROM assets a
    WHERE a.workspace_id = ${workspaceId} AND ${LISTABLE} GROUP BY 1 ORDER BY 1`.execute(db);
  return { days: days.rows, recount: recount.rows };
}

/** The page by plain OFFSET, the reference every deep page must equal. */
async function offsetIds(order: "-date_uploaded" | "date_uploaded", limit: number, offset: number) {
  const where = sql<boolean>`a.workspace_id = ${ws} AND ${LISTABLE}`;
  const r = await pageIdsSql(where, listingOrder(order), limit, offset).execute(env.rt.db);
  return r.rows.map((x) => x.id);
}

describe("listing at scale", () => {
  it("keeps asset_list_days equal to a recount through bulk inserts, updates and deletes", async () => {
    const db = env.rt.db;
    let c = await daysAndRecount();
    expect(c.days).toEqual(c.recount);
    expect(c.days.reduce((s, d) => s + d.n, 0)).toBe(LISTED);

    // A scratch set in the same workspace: soft delete, restore, temp flips, day moves, hard delete.
    const scratch = await sql<{ id: string }>`
      INSERT INTO assets (workspace_id, name, status, is_temp, date_uploaded)
      SELECT ${ws}::uuid, 'scratch ' || i, 'COMPLETED', false, timestamptz '2026-04-01T23:00:00Z' + i * interval '20 minutes'
      FROM generate_series(1, 30) i RETURNING id`.execute(db);
    const ids = scratch.rows.map((r) => r.id);
    c = await daysAndRecount();
    expect(c.days).toEqual(c.recount);

    expect((await admin.del(`/workspaces/${ws}/assets`, { asset_ids: ids.slice(0, 10) })).statusCode).toBe(200);
    c = await daysAndRecount();
    expect(c.days).toEqual(c.recount);
    await db.updateTable("assets").set({ deleted_at: null }).where("id", "in", ids.slice(0, 5)).execute();
    await db.updateTable("assets").set({ is_temp: true }).where("id", "in", ids.slice(10, 15)).execute();
    await db.updateTable("assets").set({ is_temp: false }).where("id", "in", ids.slice(10, 12)).execute();
    await sql`UPDATE assets SET date_uploaded = date_uploaded + interval '3 days' WHERE id = ANY(${ids.slice(15, 25)}::uuid[])`.execute(
      db,
    );
    await db.updateTable("assets").set({ name: "renamed" }).where("id", "in", ids).execute(); // no listable change
    c = await daysAndRecount();
    expect(c.days).toEqual(c.recount);
    await db.deleteFrom("assets").where("id", "in", ids).execute();
    c = await daysAndRecount();
    expect(c.days).toEqual(c.recount);
    expect(c.days.reduce((s, d) => s + d.n, 0)).toBe(LISTED);
  });

  it("drops a deleted workspace's days with it", async () => {
    const other = (await workspaceWith(env)).ws.id;
    await sql`INSERT INTO assets (workspace_id, name, status, is_temp) SELECT ${other}::uuid, 'x' || i, 'COMPLETED', false
      FROM generate_series(1, 5) i`.execute(env.rt.db);
    expect((await daysAndRecount(other)).days).toEqual([{ day: expect.any(String), n: 5 }]);
    await env.rt.db.deleteFrom("workspaces").where("id", "=", other).execute();
    const left = await sql`SELECT 1 FROM asset_list_days WHERE workspace_id = ${other}`.execute(env.rt.db);
    expect(left.rows).toEqual([]);
  });

  it("starts deep pages from the days exactly where OFFSET would, at and around every day edge", async () => {
    for (const order of ["-date_uploaded", "date_uploaded"] as const) {
      const desc = order.startsWith("-");
      const { days } = await daysAndRecount();
      if (desc) days.reverse();
      // Every offset where a day starts, and one either side, plus the very end and beyond it.
      const edges = new Set<number>([LISTED - 1, LISTED, LISTED + 5]);
      let before = 0;
      for (const d of days) {
        for (const o of [before - 1, before, before + 1]) if (o >= 0) edges.add(o);
        before += d.n;
      }
      for (const offset of edges) {
        const r = await dayPageIdsSql(ws, desc, 11, offset).execute(env.rt.db);
        expect(
          r.rows.map((x) => x.id),
          `${order} offset ${offset}`,
        ).toEqual(await offsetIds(order, 11, offset));
      }
    }
  });

  it("answers deep pages through the API equal to OFFSET, both directions, with exact has_more", async () => {
    const cases: Array<[number, number]> = [
      [100, 11],
      [100, 37],
      [7, 150],
      [7, 1714],
      [100, 120],
      [100, 121],
    ];
    for (const order of ["-date_uploaded", "date_uploaded"] as const) {
      for (const [page_size, page] of cases) {
        const offset = (page - 1) * page_size;
        expect(offset >= DAY_SKIP_MIN_OFFSET || page === 1).toBe(true);
        const res = await list({ order_by: order, page_size, page });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        const want = await offsetIds(order, page_size + 1, offset);
        expect(
          body.data.map((a: { id: string }) => a.id),
          `${order} page ${page} of ${page_size}`,
        ).toEqual(want.slice(0, page_size));
        expect(body.pagination.has_more).toBe(want.length > page_size);
      }
    }
  });

  it("counts the unfiltered listing exactly from the days", async () => {
    const p = (await list({})).json().pagination;
    expect(p).toEqual({
      page: 1,
      page_size: 10,
      total_count: LISTED,
      total_pages: LISTED / 10,
      has_more: true,
      count_is_estimate: false,
      next_cursor: expect.any(String),
    });
  });

  it("answers the planner's estimate, flagged, above EXACT_COUNT_LIMIT, and exact counts below it", async () => {
    const images = (await list({ file_type: { includes: ["IMAGE"] } })).json().pagination;
    expect(images.count_is_estimate).toBe(true);
    expect(images.total_count).toBeGreaterThan(EXACT_COUNT_LIMIT);
    // The planner's own estimate of this workspace's images (not the bounded count's stop at 10,001),
    // though other workspaces hold other types (statistics on workspace and type).
    expect(images.total_count).not.toBe(EXACT_COUNT_LIMIT + 1);
    expect(Math.abs(images.total_count - 11_000)).toBeLessThan(1_100);
    expect(images.total_pages).toBe(Math.ceil(images.total_count / 10));
    expect(images.has_more).toBe(true);

    // The last page knows: exact, not flagged.
    const last = (await list({ file_type: { includes: ["IMAGE"] }, page_size: 100, page: 110 })).json();
    expect(last.data).toHaveLength(100);
    expect(last.pagination).toMatchObject({ total_count: 11_000, count_is_estimate: false, has_more: false });

    const videos = (await list({ file_type: { includes: ["VIDEO"] } })).json().pagination;
    expect(videos).toMatchObject({ total_count: 1_000, total_pages: 100, count_is_estimate: false });

    // Correlated conditions the planner multiplies as independent: whichever way it goes (estimate
    // first, or an exact count that stops at the limit), the answer says it is not exact.
    const correlated = (
      await list({
        file_type: { includes: ["IMAGE"] },
        file_extension: { includes: ["jpg"] },
        exif: { camera: { camera_makes: ["canon"] } },
      })
    ).json().pagination;
    expect(correlated.count_is_estimate).toBe(true);
    expect(correlated.total_count).toBeGreaterThan(EXACT_COUNT_LIMIT);
  });

  it("probes few matches and sorts them, walks many: both equal to OFFSET for every order", async () => {
    const scope = { workspaceId: ws, userId: actor.userId };
    const orders: ListingOrder[] = ["-date_uploaded", "name", "-size", "date_taken", "-file_type"];
    const filters: Array<[string, AssetListInput, number]> = [
      ["videos: 1,000, sorted", { file_type: { includes: ["VIDEO"] } }, 1_000],
      ["images: 11,000, walked", { file_type: { includes: ["IMAGE"] } }, 11_000],
    ];
    for (const [label, input, matches] of filters) {
      expect(matches <= PROBE_LIMIT).toBe(label.endsWith("sorted"));
      for (const order of orders) {
        const where = listingWhere(AssetListBody.parse(input), scope);
        for (const offset of [0, 7, 995, matches - 5, matches + 3]) {
          const ids = async (page: Parameters<typeof assetViewRepo.rows>[1]) =>
            (await assetViewRepo.rows(env.rt.db, page, actor.userId)).map((r) => r.id);
          const want = await ids(plainPageIds(pageIdsSql(where, listingOrder(order), 11, offset)));
          expect(want.length, `${label} ${order} ${offset}`).toBe(Math.max(0, Math.min(11, matches - offset)));
          expect(
            await ids(probePageIds(AssetListBody.parse({ ...input, order_by: order }), scope, 11, offset)),
            `${label} ${order} ${offset}`,
          ).toEqual(want);
          // The guarded walk: its budget fills (small offsets), or it falls back to sorting or walking.
          const body = AssetListBody.parse({ ...input, order_by: order });
          expect(await ids(guardedPageIds(body, scope, 11, offset)), `guarded ${label} ${order} ${offset}`).toEqual(
            want,
          );
        }
      }
    }
  });

  it("answers a combination with no match from the guarded walk's fallback, empty and exact", async () => {
    const scope = { workspaceId: ws, userId: actor.userId };
    const input = { file_type: { includes: ["VIDEO"] }, file_extension: { includes: ["zzz"] } };
    for (const order of ["-date_uploaded", "name", "date_taken"] as ListingOrder[]) {
      const body = AssetListBody.parse({ ...input, order_by: order });
      const rows = await assetViewRepo.rows(env.rt.db, guardedPageIds(body, scope, 11, 0), actor.userId);
      expect(rows, order).toEqual([]);
    }
  });

  it("takes the same page probing or walking through the service, and estimates when an exact count is dear", async () => {
    const deps = { db: env.rt.db, access: env.rt.access, signer: env.rt.signer, assertBoard: async () => {} };
    const probing = createListingService({ ...deps, tuning: { probe: "always" } });
    const walking = createListingService({ ...deps, tuning: { probe: "never" } });
    const dear = createListingService({ ...deps, tuning: { countMaxPlanCost: -1 } });
    // 1,000 clips (the probe sorts them) and 11,000 assets (the probe walks).
    for (const [search, total] of [
      ["clip", 1_000],
      ["asset", 11_000],
    ] as const) {
      const body = AssetListBody.parse({ search, order_by: "name", page: 3, page_size: 20 });
      const a = await probing.list(actor, ws, body);
      const b = await walking.list(actor, ws, body);
      expect(a.data.map((x) => x.id)).toEqual(b.data.map((x) => x.id));
      expect(a.data).toHaveLength(20);
      expect(a.data.every((x) => x.name.startsWith(search))).toBe(true);
      if (total <= EXACT_COUNT_LIMIT)
        expect(a.pagination).toMatchObject({ total_count: total, count_is_estimate: false });
      const c = await dear.list(actor, ws, body);
      expect(c.data.map((x) => x.id)).toEqual(a.data.map((x) => x.id));
      expect(c.pagination.count_is_estimate).toBe(true);
    }
  });

  it("probes few matches, or a rough small estimate, when indexes reach them", () => {
    const scope = { workspaceId: ws, userId: actor.userId };
    // The plan's kind from its WITH clause: none (a plain walk), `w` (the guarded walk), else the probe.
    const kind = (input: AssetListInput, planned: { rows: number; cost: number; seqScan: boolean }) => {
      const p = filteredPageIds(AssetListBody.parse(input), scope, planned);
      if (p.with === null) return "walk";
      return p.with.compile(env.rt.db).sql.includes("WITH w AS") ? "guarded" : "probe";
    };
    const probes = (input: AssetListInput, planned: { rows: number; cost: number; seqScan: boolean }) =>
      kind(input, planned) === "probe";
    const small = { rows: 5_000, cost: 16_000, seqScan: false };
    // A rough small estimate: a shallow page walks on a budget first, then probes; a deep one probes.
    expect(kind({ search: "zzqx" }, small)).toBe("guarded");
    expect(kind({ search: "zzqx", page: 500 }, small)).toBe("probe");
    expect(kind({ search: "zzqx" }, { ...small, rows: 10 })).toBe("guarded");
    // Rough only by custom-field values: the probe, driven from the field's values, comes first.
    const field = { field_id: "00000000-0000-4000-8000-000000000001", text_contains: "x" };
    expect(kind({ custom_fields: [field] }, small)).toBe("probe");
    expect(kind({ custom_fields: [field], search: "zzqx" }, small)).toBe("guarded");
    expect(probes({ or_groups: [{ search: "zzqx" }, { favorite: true }], page: 500 }, small)).toBe(true);
    expect(probes({ ai_tags: { includes: ["cat"], min_confidence: 0.9 }, page: 500 }, small)).toBe(true);
    expect(probes({ search: "zzqx", page: 500 }, { ...small, rows: 200_000 })).toBe(false); // believed common: walk
    expect(probes({ search: "zzqx", page: 500 }, { ...small, seqScan: true })).toBe(false); // a scan either way
    expect(probes({ tags: { includes: ["rare"] } }, small)).toBe(false); // tag statistics are good
    expect(probes({ favorite: true }, { ...small, rows: 1_000 })).toBe(true); // few and trusted: sorting them is cheap
    // Believed common: a first page walks on a budget; a deep one, or one the planner would scan, as planned.
    expect(kind({ search: "zzqx" }, { ...small, rows: 200_000 })).toBe("guarded");
    expect(kind({ tags: { includes: ["rare"] } }, small)).toBe("guarded");
    expect(kind({ tags: { includes: ["rare"] }, page: 500 }, small)).toBe("walk");
    expect(kind({ search: "zzqx" }, { ...small, rows: 200_000, seqScan: true })).toBe("walk");
  });
  it("walks a custom field's many text matches in order once the probe finds them many, and counts them up to PROBE_LIMIT", async () => {
    // "Contains" on a text field of 3,000 assets: the planner multiplies the field and the text
    // estimates as if independent (issue 16); the probe finds more than PROBE_LIMIT, the walk takes
    // over (walkIds). "retouch 12" matches a few: the probe sorts them. Both equal the plain statement.
    const db = env.rt.db;
    const scope = { workspaceId: ws, userId: actor.userId };
    const field = await db
      .insertInto("custom_fields")
      .values({ workspace_id: ws, title: "Notes", field_type: "TEXT", position: 0 })
      .returning("id")
      .executeTakeFirstOrThrow();
    try {
      await sql`
        INSERT INTO field_values (workspace_id, field_id, asset_id, text_value)
        SELECT ${ws}::uuid, ${field.id}::uuid, a.id, 'needs a retouch ' || a.i
        FROM (SELECT a.id, row_number() OVER (ORDER BY a.id) AS i FROM assets a WHERE a.workspace_id = ${ws} AND ${LISTABLE}) a
        WHERE a.i % 4 = 1`.execute(db);
      await sql`ANALYZE field_values`.execute(db);
      const ids = async (page: Parameters<typeof assetViewRepo.rows>[1]) =>
        (await assetViewRepo.rows(db, page, actor.userId)).map((r) => r.id);
      const valuesWith = async (text: string) => {
        const r = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM field_values WHERE field_id = ${field.id} AND text_value LIKE ${`%${text}%`}`.execute(
          db,
        );
        return r.rows[0]!.n;
      };
      for (const text of ["retouch", "retouch 12"]) {
        const matches = await valuesWith(text);
        expect(matches > PROBE_LIMIT, text).toBe(text === "retouch");
        for (const order of ["-date_uploaded", "name", "-size", "date_taken"] as ListingOrder[]) {
          const body = AssetListBody.parse({
            custom_fields: [{ field_id: field.id, text_contains: text }],
            order_by: order,
          });
          const where = listingWhere(body, scope);
          for (const offset of [0, 7, matches - 5]) {
            const want = await ids(plainPageIds(pageIdsSql(where, listingOrder(order), 11, offset)));
            expect(want.length, `${text} ${order} ${offset}`).toBe(Math.min(11, matches - offset));
            expect(await ids(probePageIds(body, scope, 11, offset)), `probe ${text} ${order} ${offset}`).toEqual(want);
            expect(await ids(guardedPageIds(body, scope, 11, offset)), `guarded ${text} ${order} ${offset}`).toEqual(
              want,
            );
          }
        }
      }
      // With an upload-date range (kept inside the fenced walk as the order index's range).
      for (const order of ["-date_uploaded", "date_uploaded", "name"] as ListingOrder[]) {
        const input = { date_uploaded_from: "2026-03-03", date_uploaded_to: "2026-03-12" };
        const body = AssetListBody.parse({
          custom_fields: [{ field_id: field.id, text_contains: "retouch" }],
          ...input,
          order_by: order,
        });
        const where = listingWhere(body, scope);
        for (const offset of [0, 7, 1_200]) {
          const want = await ids(plainPageIds(pageIdsSql(where, listingOrder(order), 11, offset)));
          expect(want.length, `range ${order} ${offset}`).toBe(11);
          expect(await ids(probePageIds(body, scope, 11, offset)), `range probe ${order} ${offset}`).toEqual(want);
          expect(await ids(guardedPageIds(body, scope, 11, offset)), `range guarded ${order} ${offset}`).toEqual(want);
        }
      }
      // A rough estimate is counted up to PROBE_LIMIT: beyond it, flagged; below it, exact.
      const many = (await list({ custom_fields: [{ field_id: field.id, text_contains: "retouch" }] })).json();
      expect(many.pagination.count_is_estimate).toBe(true);
      expect(many.pagination.total_count).toBeGreaterThan(PROBE_LIMIT);
      const few = (await list({ custom_fields: [{ field_id: field.id, text_contains: "retouch 12" }] })).json();
      expect(few.pagination).toMatchObject({ total_count: await valuesWith("retouch 12"), count_is_estimate: false });
    } finally {
      await db.deleteFrom("custom_fields").where("id", "=", field.id).execute();
    }
  });
});

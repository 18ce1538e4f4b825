import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, signedInUser, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { palette, seedListingFixture } from "./listing.fixture.ts";

let env: TestEnv;
let ws: string;
let admin: Client;
let commenter: Client;
let boardId: string;
/** Fixture ids by name: each filter below must select an exact, known subset. */
const A: Record<string, string> = {};

beforeAll(async () => {
  env = await createTestEnv({}, { work: false });
  const f = await seedListingFixture(env);
  ws = f.ws;
  admin = f.admin;
  commenter = f.commenter;
  boardId = f.boardId;
  Object.assign(A, f.A);
});
afterAll(() => env.close());

const list = (body: Record<string, unknown>, c: Client = admin) => c.post(`/workspaces/${ws}/assets`, body);
/** The fixture names of the ids a filter selects, sorted: exact sets, readable failures. */
async function names(body: Record<string, unknown>, c: Client = admin) {
  const res = await list({ page_size: 100, ...body }, c);
  expect(res.statusCode, res.body).toBe(200);
  const byId = Object.fromEntries(Object.entries(A).map(([k, v]) => [v, k]));
  return (res.json().data as Array<{ id: string }>).map((a) => byId[a.id]).sort();
}
async function expect422(body: Record<string, unknown>, field: RegExp) {
  const res = await list(body);
  expect(res.statusCode, res.body).toBe(422);
  const errors = res.json().errors as Array<{ field: string; message: string }>;
  expect(
    errors.some((e) => field.test(`${e.field} ${e.message}`)),
    res.body,
  ).toBe(true);
}

describe("asset listing", () => {
  it("lists live, non-temporary assets newest first with the pagination block", async () => {
    const res = await list({});
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((a: { id: string }) => a.id)).toEqual([A.notes, A.clip, A.report, A.beach, A.cafe]);
    expect(body.pagination).toEqual({
      page: 1,
      page_size: 10,
      total_count: 5,
      total_pages: 1,
      has_more: false,
      count_is_estimate: false,
      next_cursor: null,
    });
    const cafe = body.data.find((a: { id: string }) => a.id === A.cafe);
    expect(cafe).toMatchObject({ tags: ["Food", "Travel"], ai_tags: ["cup"], boards: [{ id: boardId }] });
  });

  it("answers each listed asset exactly as GET /assets/{id} does (the listing reads its own columns)", async () => {
    for (const c of [admin, commenter]) {
      const data = (await list({ page_size: 100 }, c)).json().data as Array<Record<string, unknown>>;
      expect(data).toHaveLength(5);
      for (const listed of data) {
        const one = await c.get(`/workspaces/${ws}/assets/${listed.id}`);
        expect(one.statusCode, one.body).toBe(200);
        // Signed URLs carry their own expiry: compare what they point at.
        const unsigned = (a: Record<string, unknown>) => ({ ...a, url: String(a.url).split("?")[0] });
        expect(unsigned(listed)).toEqual(unsigned(one.json()));
      }
    }
  });

  it("searches name, description, tags, AI tags and EXIF text; case and accent insensitive; words ANDed", async () => {
    expect(await names({ search: "cafe" })).toEqual(["cafe"]);
    expect(await names({ search: "CAFÉ" })).toEqual(["cafe"]);
    expect(await names({ search: "quarterly" })).toEqual(["report"]);
    expect(await names({ search: "travel" })).toEqual(["beach", "cafe"]);
    expect(await names({ search: "sea" })).toEqual(["beach"]);
    expect(await names({ search: "canon" })).toEqual(["cafe"]);
    expect(await names({ search: "paris cafe" })).toEqual(["cafe"]);
    expect(await names({ search: "paris beach" })).toEqual([]);
    expect(await names({ search: "100%" })).toEqual([]); // LIKE wildcards are literal
    // Also those normalisation makes: unaccent turns the fullwidth ％ ＿ into % _ (issue 27).
    expect(await names({ search: "c％fe" })).toEqual([]);
    expect(await names({ search: "caf＿" })).toEqual([]);
    expect(await names({ exif: { exif_search: "rf＿24" } })).toEqual([]);
  });

  it("keeps the search text and tag filters in step with later tag changes and renames", async () => {
    const db = env.rt.db;
    const t = await db
      .insertInto("tags")
      .values({ workspace_id: ws, name: "Zebra" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.insertInto("asset_tags").values({ asset_id: A.clip!, tag_id: t.id }).execute();
    expect(await names({ search: "zebra" })).toEqual(["clip"]);
    expect(await names({ tags: { includes: ["ZEBRA"] } })).toEqual(["clip"]);
    await db.updateTable("tags").set({ name: "Okapi" }).where("id", "=", t.id).execute();
    expect(await names({ search: "zebra" })).toEqual([]);
    expect(await names({ search: "okapi" })).toEqual(["clip"]);
    expect(await names({ tags: { includes: ["zebra"] } })).toEqual([]);
    expect(await names({ or_groups: [{ tags: { all_of: ["okapi"] } }] })).toEqual(["clip"]);
    await db.deleteFrom("tags").where("id", "=", t.id).execute();
    expect(await names({ search: "okapi" })).toEqual([]);
    expect(await names({ tags: { includes: ["okapi"] } })).toEqual([]);
    // AI labels likewise.
    await db
      .insertInto("ai_tags")
      .values({ asset_id: A.notes!, workspace_id: ws, label: "Giraffe", confidence: 0.9 })
      .execute();
    expect(await names({ ai_tags: { includes: ["giraffe"], ai_only: true } })).toEqual(["notes"]);
    await db.deleteFrom("ai_tags").where("asset_id", "=", A.notes!).where("label", "=", "Giraffe").execute();
    expect(await names({ ai_tags: { includes: ["giraffe"] } })).toEqual([]);
  });

  it("filters file_type and file_extension with includes (any of) and excludes (none of)", async () => {
    expect(await names({ file_type: { includes: ["IMAGE", "VIDEO"] } })).toEqual(["beach", "cafe", "clip"]);
    expect(await names({ file_type: { excludes: ["IMAGE"] } })).toEqual(["clip", "notes", "report"]);
    expect(await names({ file_type: { includes: ["IMAGE"], excludes: ["IMAGE"] } })).toEqual([]);
    expect(await names({ file_extension: { includes: [".JPG", "png"] } })).toEqual(["beach", "cafe"]);
    expect(await names({ file_extension: { excludes: ["pdf", "txt"] } })).toEqual(["beach", "cafe", "clip"]);
    await expect422({ file_type: { includes: ["PHOTO"] } }, /file_type/);
    await expect422({ file_type: { includes: ["image"] } }, /file_type/);
  });

  it("answers favourites per caller", async () => {
    expect(await names({ favorite: true })).toEqual(["cafe"]);
    expect(await names({ favorite: true }, commenter)).toEqual(["beach"]);
    expect(await names({ favorite: false })).toEqual(["beach", "clip", "notes", "report"]);
    const data = (await list({}, commenter)).json().data as Array<{ id: string; favorite: boolean }>;
    expect(data.filter((a) => a.favorite).map((a) => a.id)).toEqual([A.beach]);
  });

  it("filters upload dates inclusively; a plain date _to covers the day", async () => {
    expect(await names({ date_uploaded_from: "2026-01-02", date_uploaded_to: "2026-01-04" })).toEqual([
      "beach",
      "clip",
      "report",
    ]);
    expect(await names({ date_uploaded_to: "2026-01-02T10:00:00Z" })).toEqual(["beach", "cafe"]);
    await expect422({ date_uploaded_from: "yesterday" }, /date_uploaded_from/);
  });

  it("filters manual tags and AI tags with their qualifiers", async () => {
    expect(await names({ tags: { includes: ["travel"] } })).toEqual(["beach", "cafe"]);
    expect(await names({ tags: { excludes: ["Travel"] } })).toEqual(["clip", "notes", "report"]);
    expect(await names({ tags: { includes: ["travel", "work"], excludes: ["food"] } })).toEqual(["beach", "report"]);
    expect(await names({ ai_tags: { includes: ["cup"] } })).toEqual(["cafe", "notes"]);
    expect(await names({ ai_tags: { includes: ["cup"], ai_only: true } })).toEqual(["cafe"]);
    expect(await names({ ai_tags: { includes: ["cup"], manual_only: true } })).toEqual(["notes"]);
    expect(await names({ ai_tags: { excludes: ["cup"] } })).toEqual(["beach", "clip", "report"]);
    expect(await names({ ai_tags: { min_confidence: 0.8 } })).toEqual(["cafe"]);
    expect(await names({ ai_tags: { tag_types: ["scene"] } })).toEqual(["beach"]);
    expect(await names({ ai_tags: { includes: ["sea"], min_confidence: 0.7, ai_only: true } })).toEqual([]);
    await expect422({ ai_tags: { ai_only: true, manual_only: true } }, /manual_only|exclude/);
  });

  it("ORs or_groups with each other and ANDs them with the other keys", async () => {
    const groups = [{ file_type: { includes: ["VIDEO"] } }, { tags: { all_of: ["travel", "food"] } }];
    expect(await names({ or_groups: groups })).toEqual(["cafe", "clip"]);
    expect(await names({ or_groups: groups, favorite: true })).toEqual(["cafe"]);
    expect(await names({ or_groups: groups, file_type: { excludes: ["IMAGE"] } })).toEqual(["clip"]);
    expect(await names({ or_groups: [{ tags: { any_of: ["work", "food"] } }, { search: "beach" }] })).toEqual([
      "beach",
      "cafe",
      "report",
    ]);
    expect(await names({ or_groups: [{ tags: { any_of: ["travel"], none_of: ["food"] } }] })).toEqual(["beach"]);
    expect(
      await names({
        or_groups: [{ colors: { color_search: "#0000ff" } }, { ai_tags: { includes: ["cup"], ai_only: true } }],
      }),
    ).toEqual(["beach", "cafe"]);
    expect(await names({ or_groups: [{ date_uploaded_from: "2026-01-05" }, { favorite: true }] })).toEqual([
      "cafe",
      "notes",
    ]);
    await expect422({ or_groups: [{}] }, /or_groups/);
  });

  it("matches colours by ΔE among dominant colours, and by simplified names", async () => {
    // #e01010 is ΔE ≈ 9 from pure red; the notes' red covers 2% only.
    expect(await names({ colors: { color_search: "#ff0000" } })).toEqual(["cafe", "clip"]);
    expect(await names({ colors: { color_search: "f00" } })).toEqual(["cafe", "clip"]);
    expect(await names({ colors: { color_search: "#00ff00" } })).toEqual([]);
    expect(await names({ colors: { dominant_colors: { includes: ["#0000fa", "#000000"] } } })).toEqual([
      "beach",
      "clip",
    ]);
    expect(await names({ colors: { dominant_colors: { excludes: ["#ff0000"] } } })).toEqual([
      "beach",
      "notes",
      "report",
    ]);
    expect(await names({ colors: { simplified_colors: { includes: ["blue", "black"] } } })).toEqual(["beach", "clip"]);
    await expect422({ colors: { color_search: "red" } }, /color_search/);
    await expect422({ colors: { simplified_colors: { includes: ["teal"] } } }, /simplified_colors/);
  });

  it("keeps asset_colors in step with the palette", async () => {
    const db = env.rt.db;
    const id = (
      await db
        .insertInto("assets")
        .values({
          workspace_id: ws,
          name: "later.jpg",
          is_temp: false,
          date_uploaded: new Date("2020-01-01T00:00:00Z"),
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .updateTable("assets")
      .set({ palette: palette(["#00ff00", 1]) })
      .where("id", "=", id)
      .execute();
    const green = await list({ colors: { color_search: "#00ff00" } });
    expect(green.json().data.map((a: { id: string }) => a.id)).toEqual([id]);
    await db.deleteFrom("assets").where("id", "=", id).execute();
  });

  it("filters image quality and EXIF ranges, cameras, values and GPS", async () => {
    expect(await names({ image_quality: { contrast_min: 50 } })).toEqual(["cafe"]);
    expect(await names({ image_quality: { brightness_max: 80 } })).toEqual(["cafe"]);
    expect(await names({ image_quality: { sharpness_min: 20, sharpness_max: 40 } })).toEqual(["beach"]);
    expect(await names({ exif: { location: { has_gps: true } } })).toEqual(["cafe"]);
    expect(await names({ exif: { location: { has_gps: false } } })).toEqual(["beach", "clip", "notes", "report"]);
    expect(await names({ exif: { location: { latitude_min: 40, latitude_max: 50, altitude_max: 40 } } })).toEqual([
      "cafe",
    ]);
    expect(await names({ exif: { location: { longitude_min: 3 } } })).toEqual([]);
    expect(await names({ exif: { camera: { camera_makes: ["canon", "Leica"] } } })).toEqual(["cafe"]);
    expect(await names({ exif: { camera: { camera_models: ["z6"] } } })).toEqual(["beach"]);
    expect(await names({ exif: { camera: { camera_search: "nik" } } })).toEqual(["beach"]);
    expect(await names({ exif: { exif_search: "rf 24" } })).toEqual(["cafe"]);
    expect(await names({ exif: { technical: { iso_min: 200 } } })).toEqual(["beach"]);
    expect(await names({ exif: { technical: { aperture_values: [2.8, 5.6] } } })).toEqual(["cafe"]);
    expect(await names({ exif: { technical: { exposure_times: [0.01] } } })).toEqual(["beach"]);
    expect(await names({ exif: { technical: { focal_lengths: [24, 35] } } })).toEqual(["beach"]);
    expect(await names({ exif: { technical: { date_taken_from: "2025-06-15" } } })).toEqual(["beach"]);
    expect(await names({ exif: { technical: { date_taken_to: "2025-06-01" } } })).toEqual(["cafe"]);
    await expect422({ exif: { location: { latitude_min: 91 } } }, /latitude_min/);
    await expect422({ image_quality: { contrast_min: "high" } }, /contrast_min/);
  });

  it("validates custom_fields (matching is tested with the fields, modules/fields)", async () => {
    // A field nobody has: nothing has a value for it, so "is empty" holds for every asset.
    const cf = [{ field_id: randomUUID(), is_empty: true }];
    expect(await names({ custom_fields: cf })).toEqual(["beach", "cafe", "clip", "notes", "report"]);
    await expect422({ custom_fields: [{ field_id: "nope" }] }, /custom_fields/);
    await expect422({ custom_fields: [{ field_id: randomUUID(), includes: ["x"] }] }, /custom_fields/);
  });

  it("filters to a board; another workspace's board or an unknown one is 404", async () => {
    expect(await names({ board_id: boardId })).toEqual(["cafe"]);
    const other = await workspaceWith(env);
    const foreign = (await other.admin.client.post(`/workspaces/${other.ws.id}/boards`, { name: "Theirs" })).json().id;
    expect((await list({ board_id: foreign })).statusCode).toBe(404);
    expect((await list({ board_id: randomUUID() })).statusCode).toBe(404);
  });

  it("pages: exact edges, beyond the end empty, page_size 1..100", async () => {
    const p2 = (await list({ page: 2, page_size: 2 })).json();
    expect(p2.data.map((a: { id: string }) => a.id)).toEqual([A.report, A.beach]);
    expect(p2.pagination).toMatchObject({ page: 2, page_size: 2, total_count: 5, total_pages: 3, has_more: true });
    const p3 = (await list({ page: 3, page_size: 2 })).json();
    expect(p3.data.map((a: { id: string }) => a.id)).toEqual([A.cafe]);
    expect(p3.pagination.has_more).toBe(false);
    const beyond = (await list({ page: 9, page_size: 2 })).json();
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toMatchObject({ total_count: 5, has_more: false, count_is_estimate: false });
    expect((await list({ page_size: 100 })).statusCode).toBe(200);
    await expect422({ page_size: 0 }, /page_size/);
    await expect422({ page_size: 101 }, /page_size/);
    await expect422({ page: 0 }, /page/);
  });

  it("orders by every key both ways, ties broken by id in the same direction", async () => {
    const idOf = (k: string) => A[k]!;
    const byId = (x: string, y: string) => (idOf(x) < idOf(y) ? -1 : 1);
    const expected: Record<string, string[]> = {
      date_uploaded: ["cafe", "beach", "report", "clip", "notes"],
      name: ["beach", "cafe", "clip", "notes", "report"],
      // report and notes share a size: id decides.
      size: ["cafe", ...["report", "notes"].sort(byId), "beach", "clip"],
      // no date_taken last, either way; among them, id.
      date_taken: ["cafe", "beach", ...["report", "clip", "notes"].sort(byId)],
      file_type: ["report", ...["cafe", "beach"].sort(byId), "notes", "clip"],
    };
    const reversed: Record<string, string[]> = {
      date_uploaded: [...expected.date_uploaded!].reverse(),
      name: [...expected.name!].reverse(),
      size: [...expected.size!].reverse(),
      date_taken: ["beach", "cafe", ...["report", "clip", "notes"].sort(byId).reverse()],
      file_type: [...expected.file_type!].reverse(),
    };
    for (const key of Object.keys(expected)) {
      for (const [order, want] of [
        [key, expected[key]!],
        [`-${key}`, reversed[key]!],
      ] as const) {
        const res = await list({ order_by: order, page_size: 100 });
        expect(res.statusCode, res.body).toBe(200);
        expect(
          res.json().data.map((a: { id: string }) => Object.keys(A).find((k) => A[k] === a.id)),
          order,
        ).toEqual(want);
      }
    }
    await expect422({ order_by: "colour" }, /order_by/);
  });

  it("refuses unknown keys, naming them, at any depth", async () => {
    await expect422({ colour: "red" }, /colour/);
    await expect422({ exif: { camera: { brand: "x" } } }, /brand/);
    await expect422({ or_groups: [{ file_types: {} }] }, /file_types/);
  });

  it("lets a COMMENTER list and answers 404 to an outsider", async () => {
    expect((await list({}, commenter)).statusCode).toBe(200);
    const outsider = (await signedInUser(env)).client;
    expect((await list({}, outsider)).statusCode).toBe(404);
  });
});

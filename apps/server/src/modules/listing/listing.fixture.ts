import type { TestEnv } from "../../../test/harness.ts";
import { workspaceWith } from "../../../test/harness.ts";
import type { AssetsTable } from "../../db/types.ts";
import { hexToLab } from "../../media/colors.ts";

/** jsonb goes in as JSON text (node-pg would send a JS array as a PostgreSQL array). */
export const palette = (...cs: Array<[string, number]>) =>
  JSON.stringify(cs.map(([hex, share]) => ({ hex, share, lab: hexToLab(hex) }))) as unknown as AssetsTable["palette"];

/**
 * The listing fixture: a workspace whose assets (rows made directly, with tags, AI tags, a board and
 * favourites) are chosen so that each filter selects an exact, known subset. `A` maps names to ids.
 */
export async function seedListingFixture(env: TestEnv) {
  const A: Record<string, string> = {};
  const w = await workspaceWith(env, ["COMMENTER"]);
  const ws = w.ws.id;
  const admin = w.admin.client;
  const commenter = w.members.COMMENTER!.client;
  const boardId = (await admin.post(`/workspaces/${ws}/boards`, { name: "Picks" })).json().id;
  const db = env.rt.db;
  const base = { workspace_id: ws, is_temp: false, status: "COMPLETED" as const };
  const rows = [
    {
      ...base,
      name: "Café de Paris.jpg",
      file_type: "IMAGE" as const,
      file_extension: "jpg",
      size: 100,
      date_uploaded: new Date("2026-01-01T10:00:00Z"),
      date_taken: "2025-06-01T12:00:00Z",
      exif: "{}",
      camera_make: "Canon",
      camera_model: "EOS R5",
      lens: "RF 24-70mm",
      iso: 100,
      aperture: 2.8,
      exposure_time: 0.004,
      focal_length: 50,
      gps_latitude: 48.85,
      gps_longitude: 2.35,
      gps_altitude: 35,
      palette: palette(["#ff0000", 0.6], ["#ffffff", 0.4]),
      simplified_colors: ["red", "white"],
      quality_contrast: 80,
      quality_sharpness: 70,
      quality_brightness: 60,
    },
    {
      ...base,
      name: "beach.png",
      file_type: "IMAGE" as const,
      file_extension: "png",
      size: 300,
      date_uploaded: new Date("2026-01-02T10:00:00Z"),
      date_taken: "2025-07-01T12:00:00Z",
      exif: "{}",
      camera_make: "Nikon",
      camera_model: "Z6",
      iso: 800,
      aperture: 4,
      exposure_time: 0.01,
      focal_length: 24,
      palette: palette(["#0000ff", 0.7], ["#ffff00", 0.3]),
      simplified_colors: ["blue", "yellow"],
      quality_contrast: 40,
      quality_sharpness: 30,
      quality_brightness: 90,
    },
    {
      ...base,
      name: "report.pdf",
      description: "Quarterly numbers",
      file_type: "DOCUMENT" as const,
      file_extension: "pdf",
      size: 200,
      date_uploaded: new Date("2026-01-03T10:00:00Z"),
    },
    {
      ...base,
      name: "clip.mp4",
      file_type: "VIDEO" as const,
      file_extension: "mp4",
      size: 500,
      date_uploaded: new Date("2026-01-04T10:00:00Z"),
      palette: palette(["#e01010", 0.3], ["#000000", 0.7]),
      simplified_colors: ["red", "black"],
    },
    {
      ...base,
      name: "notes.txt",
      file_type: "OTHER" as const,
      file_extension: "txt",
      size: 200,
      date_uploaded: new Date("2026-01-05T10:00:00Z"),
      // Red, but only 2% of the image: not a dominant colour.
      palette: palette(["#ffffff", 0.98], ["#ff0000", 0.02]),
      simplified_colors: ["white"],
    },
    { ...base, name: "Café deleted.jpg", deleted_at: new Date() },
    { ...base, name: "Café uploading.jpg", is_temp: true, status: "processing" as const },
  ];
  const keys = ["cafe", "beach", "report", "clip", "notes", "deleted", "temp"];
  for (const [i, r] of rows.entries()) {
    A[keys[i]!] = (await db.insertInto("assets").values(r).returning("id").executeTakeFirstOrThrow()).id;
  }
  const tag = async (name: string, assetIds: string[]) => {
    const t = await db.insertInto("tags").values({ workspace_id: ws, name }).returning("id").executeTakeFirstOrThrow();
    for (const id of assetIds) await db.insertInto("asset_tags").values({ asset_id: id, tag_id: t.id }).execute();
  };
  await tag("Travel", [A.cafe!, A.beach!]);
  await tag("Food", [A.cafe!]);
  await tag("Work", [A.report!]);
  await tag("cup", [A.notes!]); // a manual tag named like an AI label
  await db
    .insertInto("ai_tags")
    .values([
      { asset_id: A.cafe!, workspace_id: ws, label: "cup", confidence: 0.9, type: "object" },
      { asset_id: A.beach!, workspace_id: ws, label: "sea", confidence: 0.6, type: "scene" },
    ])
    .execute();
  await db.insertInto("board_assets").values({ board_id: boardId, asset_id: A.cafe! }).execute();
  await db.insertInto("asset_favorites").values({ user_id: w.admin.user.id, asset_id: A.cafe! }).execute();
  await db
    .insertInto("asset_favorites")
    .values({ user_id: w.members.COMMENTER!.user.id, asset_id: A.beach! })
    .execute();
  return { ws, admin, commenter, boardId, A };
}

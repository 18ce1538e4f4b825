import { readFile } from "node:fs/promises";
import type { AssetFaces, PeopleAnswer } from "@hangar/contract";
import { expect } from "vitest";
import { faceCrop, groupPhoto, landscapeJpeg, nearestBox } from "../../../test/faces.ts";
import { type Client, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { processedAsset } from "../../../test/versions.ts";

/** Runs the detect-faces job for an asset's first version now (tests' envs have no workers). */
export async function scanNow(env: TestEnv, versionId: string) {
  const job = env.rt.jobDefinitions.find((d) => d.name === "detect-faces");
  await job!.handle({ version_id: versionId }, { retryCount: 0 });
}

/** Runs the grouping job for one workspace (or all) now. */
export async function groupNow(env: TestEnv, workspaceId?: string) {
  const job = env.rt.jobDefinitions.find((d) => d.name === "group-faces");
  await job!.handle(workspaceId ? { workspace_id: workspaceId } : {}, { retryCount: 0 });
}

export async function facesOf(c: Client, ws: string, assetId: string) {
  const res = await c.get(`/workspaces/${ws}/assets/${assetId}/faces`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AssetFaces;
}

export async function peopleOf(c: Client, ws: string, query = "") {
  const res = await c.get(`/workspaces/${ws}/people${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PeopleAnswer;
}

/**
 * A workspace (with an EDITOR and a COMMENTER) holding a group photo of three people, a landscape,
 * and two more crops each of the group's first two faces (two sizes): every picture looked at, then
 * grouped. Answers the assets and the ids of the three faces of the group photo (left to right).
 */
export async function peopleWorkspace(env: TestEnv) {
  const w = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
  const c = w.admin.client;
  const ws = w.ws.id;
  const photo = groupPhoto(3);
  const group = await processedAsset(env, c, ws, "friends.jpg", await readFile(photo));
  const landscape = await processedAsset(env, c, ws, "hills.jpg", await landscapeJpeg());
  for (const id of [group, landscape]) await scanNow(env, id);
  const groupFaces = (await facesOf(c, ws, group)).data.sort((a, b) => a.box[0] - b.box[0]);
  expect(groupFaces.length).toBe(3);
  const crops: Record<"a" | "b", string[]> = { a: [], b: [] };
  for (const [key, face] of [
    ["a", groupFaces[0]!],
    ["b", groupFaces[1]!],
  ] as const) {
    for (const v of [
      { name: "tight-300", scale: 2.0, dx: 0, dy: 0, size: 300, flip: false },
      { name: "close-500", scale: 1.6, dx: -0.1, dy: 0.1, size: 500, flip: false },
    ]) {
      const crop = await faceCrop(photo, face.box, v);
      const id = await processedAsset(env, c, ws, `${key}-${v.name}.jpg`, crop.bytes);
      await scanNow(env, id);
      crops[key].push(id);
    }
  }
  await groupNow(env, ws);
  return { ...w, ws, group, landscape, groupFaces, crops };
}

/** The person (id) holding a face, as the asset's faces say. */
export async function personOfFace(c: Client, ws: string, assetId: string, faceId: string) {
  return (await facesOf(c, ws, assetId)).data.find((f) => f.id === faceId)?.person?.id ?? null;
}

/** The face of a crop asset nearest the crop's centre (the face it was cut for). */
export async function cropFace(c: Client, ws: string, assetId: string) {
  const faces = (await facesOf(c, ws, assetId)).data;
  return nearestBox(faces, [0.5, 0.5])!;
}

import type { AssetListAnswer, Face, FacesPage, Person } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv } from "../../../test/harness.ts";
import { cropFace, facesOf, groupNow, peopleOf, peopleWorkspace, personOfFace, scanNow } from "./people.fixture.ts";

/**
 * People (issue 32): faces found in a photo of people and none in a landscape; grouping; merge, move
 * and "not this person" survive the grouping job; the listing's people filter. Real models, real
 * photos (test/files/faces).
 */
let env: TestEnv;
let s: Awaited<ReturnType<typeof peopleWorkspace>>;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0", FACES: "1" }, { work: false });
  s = await peopleWorkspace(env);
}, 240_000);
afterAll(() => env?.close());

const list = async (body: Record<string, unknown>) => {
  const res = await s.admin.client.post(`/workspaces/${s.ws}/assets`, { page_size: 100, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as AssetListAnswer).data.map((a) => a.id).sort();
};

describe("finding faces", () => {
  it("finds the three faces of a group photo with boxes and qualities, and none in a landscape", async () => {
    const c = s.admin.client;
    expect(s.groupFaces).toHaveLength(3);
    for (const f of s.groupFaces) {
      const [x, y, w, h] = f.box;
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(w).toBeGreaterThan(0.05);
      expect(h).toBeGreaterThan(0.05);
      expect(x + w).toBeLessThanOrEqual(1);
      expect(f.quality).toBeGreaterThan(0.45);
      expect(f.groupable).toBe(true);
      expect(f.picture_url).toMatch(/^\/media\/.+thumbnail\.jpg/);
      expect(f.asset_id).toBe(s.group);
    }
    // The three faces sit side by side in the upper half of the picture.
    expect(s.groupFaces.every((f) => f.box[1] < 0.5)).toBe(true);
    const none = await facesOf(c, s.ws, s.landscape);
    expect(none).toEqual({ data: [], enabled: true, scanned: true });
    // Looking again is a no-op (the job is safe to run twice): the same faces, same ids.
    await scanNow(env, s.group);
    expect((await facesOf(c, s.ws, s.group)).data.map((f) => f.id).sort()).toEqual(
      s.groupFaces.map((f) => f.id).sort(),
    );
  });

  it("groups the crops of the same face into one person, and leaves a lone face waiting", async () => {
    const c = s.admin.client;
    const a = await personOfFace(c, s.ws, s.group, s.groupFaces[0]!.id);
    const b = await personOfFace(c, s.ws, s.group, s.groupFaces[1]!.id);
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(a).not.toBe(b);
    for (const id of s.crops.a) expect((await cropFace(c, s.ws, id)).person?.id).toBe(a);
    for (const id of s.crops.b) expect((await cropFace(c, s.ws, id)).person?.id).toBe(b);
    // The third face has no twin: it waits.
    expect(await personOfFace(c, s.ws, s.group, s.groupFaces[2]!.id)).toBeNull();
    const people = await peopleOf(c, s.ws);
    expect(people.enabled).toBe(true);
    const pa = people.data.find((p) => p.id === a)!;
    expect(pa).toMatchObject({ name: null, hidden: false, face_count: 3, asset_count: 3 });
    expect(pa.cover?.person?.id).toBe(a);
    // A COMMENTER may look.
    expect((await peopleOf(s.members.COMMENTER!.client, s.ws)).data.length).toBe(people.data.length);
  });
});

describe("what members decide survives the grouping job", () => {
  it("names a person, filters the listing by people, hides and shows them", async () => {
    const c = s.admin.client;
    const a = (await personOfFace(c, s.ws, s.group, s.groupFaces[0]!.id))!;
    const named = await c.patch(`/workspaces/${s.ws}/people/${a}`, { name: "  Ada  " });
    expect(named.statusCode, named.body).toBe(200);
    expect((named.json() as Person).name).toBe("Ada");
    expect(await list({ people: { includes: [a] } })).toEqual([s.group, ...s.crops.a].sort());
    const rest = await list({ people: { excludes: [a] } });
    expect(rest).toContain(s.landscape);
    expect(rest).not.toContain(s.group);
    expect(await list({ people: { includes: [a] }, search: "tight" })).toEqual([s.crops.a[0]]);
    const hidden = await c.patch(`/workspaces/${s.ws}/people/${a}`, { hidden: true });
    expect((hidden.json() as Person).hidden).toBe(true);
    expect((await peopleOf(c, s.ws)).data.map((p) => p.id)).not.toContain(a);
    expect((await peopleOf(c, s.ws, "?hidden=true")).data.map((p) => p.id)).toContain(a);
    await c.patch(`/workspaces/${s.ws}/people/${a}`, { hidden: false });
    const empty = await c.patch(`/workspaces/${s.ws}/people/${a}`, { name: "   " });
    expect(empty.statusCode).toBe(422);
    const foreignCover = await c.patch(`/workspaces/${s.ws}/people/${a}`, { cover_face_id: s.groupFaces[1]!.id });
    expect(foreignCover.statusCode).toBe(422);
    expect(foreignCover.json().detail).toBe("The cover must be one of this person's faces.");
  });

  it("merges two people into one, and the job never splits them again", async () => {
    const c = s.admin.client;
    const a = (await personOfFace(c, s.ws, s.group, s.groupFaces[0]!.id))!;
    const b = (await personOfFace(c, s.ws, s.group, s.groupFaces[1]!.id))!;
    const self = await c.post(`/workspaces/${s.ws}/people/${a}/merge`, { person_ids: [a] });
    expect(self.statusCode).toBe(422);
    const merged = await c.post(`/workspaces/${s.ws}/people/${a}/merge`, { person_ids: [b] });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json()).toMatchObject({ id: a, face_count: 6, asset_count: 5 });
    expect((await c.get(`/workspaces/${s.ws}/people/${b}/faces`)).statusCode).toBe(404);
    await groupNow(env, s.ws);
    await groupNow(env);
    for (const id of [...s.crops.a, ...s.crops.b]) expect((await cropFace(c, s.ws, id)).person?.id).toBe(a);
    const page = (await c.get(`/workspaces/${s.ws}/people/${a}/faces?page_size=4`)).json() as FacesPage;
    expect(page).toMatchObject({ total_count: 6, has_more: true });
    expect(page.data).toHaveLength(4);
    const q = page.data.map((f) => f.quality);
    expect(q).toEqual([...q].sort((x, y) => y - x));
  });

  it("moves a face to a person by name (Who is this?), to nobody, and 'not this person'; the job keeps each", async () => {
    const c = s.admin.client;
    const a = (await personOfFace(c, s.ws, s.group, s.groupFaces[0]!.id))!;
    // Who is this? on the waiting face: a new person named Cleo.
    const lone = s.groupFaces[2]!;
    const who = await c.patch(`/workspaces/${s.ws}/faces/${lone.id}`, { name: "Cleo" });
    expect(who.statusCode, who.body).toBe(200);
    const cleo = (who.json() as Face).person!;
    expect(cleo.name).toBe("Cleo");
    expect((who.json() as Face).by_user).toBe(true);
    // The same name again finds the same person (case aside).
    const crop = await cropFace(c, s.ws, s.crops.b[0]!);
    const moved = await c.patch(`/workspaces/${s.ws}/faces/${crop.id}`, { name: "cleo" });
    expect((moved.json() as Face).person?.id).toBe(cleo.id);
    // To nobody.
    const other = await cropFace(c, s.ws, s.crops.b[1]!);
    const nobody = await c.patch(`/workspaces/${s.ws}/faces/${other.id}`, { person_id: null });
    expect((nobody.json() as Face).person).toBeNull();
    // Not this person: the face leaves Ada and waits; the job never gives it back to her.
    const notAda = await cropFace(c, s.ws, s.crops.a[1]!);
    const rejected = await c.patch(`/workspaces/${s.ws}/faces/${notAda.id}`, { not_person_id: a });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect((rejected.json() as Face).person).toBeNull();
    await groupNow(env, s.ws);
    await groupNow(env);
    expect((await cropFace(c, s.ws, s.crops.a[1]!)).person?.id).not.toBe(a);
    expect((await cropFace(c, s.ws, s.crops.b[0]!)).person?.id).toBe(cleo.id);
    expect((await cropFace(c, s.ws, s.crops.b[1]!)).person).toBeNull();
    expect(await personOfFace(c, s.ws, s.group, lone.id)).toBe(cleo.id);
    // A bad body: two kinds at once, or none.
    expect((await c.patch(`/workspaces/${s.ws}/faces/${lone.id}`, { name: "X", person_id: null })).statusCode).toBe(
      422,
    );
    expect((await c.patch(`/workspaces/${s.ws}/faces/${lone.id}`, {})).statusCode).toBe(422);
    const unknown = await c.patch(`/workspaces/${s.ws}/faces/${lone.id}`, {
      person_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe("Person not found.");
  });
});

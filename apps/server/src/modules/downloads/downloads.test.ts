import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DOWNLOAD_ERRORS } from "@hangar/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  type Client as ClientT,
  createTestEnv,
  requestUrl,
  signedInUser,
  type TestEnv,
  testStorage,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";
import { ZIP_PATH } from "./service.ts";
import { sanitizeSegment } from "./zip.ts";

let env: TestEnv;
let tmp: string;
beforeAll(async () => {
  env = await createTestEnv({ MAX_UPLOAD_BYTES: String(64 * 1024 * 1024), AI_TAGS: "0" });
  tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-zip-test-"));
});
afterAll(async () => {
  await env.close();
  await rm(tmp, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
/** A noisy JPEG: incompressible like a real photo, so store mode is the right choice for it. */
const jpeg = (seed: number, size = 200) =>
  sharp({
    create: {
      width: size,
      height: size,
      channels: 3,
      background: "#000",
      noise: { type: "gaussian", mean: 100 + seed, sigma: 60 },
    },
  })
    .jpeg({ quality: 92 })
    .toBuffer();
const text = (line: string) => Buffer.from(`${line}\n`.repeat(400));

async function upload(c: ClientT, ws: string, name: string, data: Buffer, boardId?: string) {
  const id = await uploadBytes(c, ws, name, data, boardId);
  const a = await waitForAsset(c, ws, id);
  expect(a.status, name).toBe("COMPLETED");
  return { id, data };
}
const download = (c: ClientT, ws: string, body: Record<string, unknown>) => c.post(`/workspaces/${ws}/download`, body);
const board = async (c: ClientT, ws: string, name: string, parentId: string | null = null) =>
  (await c.post(`/workspaces/${ws}/boards`, { name, parent_id: parentId })).json().id as string;

/** GETs a zip URL with no session at all (the signature is the proof) and reads it with the system unzip. */
async function fetchZip(url: string) {
  const res = await new Client(env.app).get(url);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers["content-type"]).toBe("application/zip");
  const file = path.join(tmp, `${randomUUID()}.zip`);
  await writeFile(file, res.rawPayload);
  const names = execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).split("\n").filter(Boolean);
  // unzip -v: "Length Method Size Cmpr Date Time CRC-32 Name"; Name may hold spaces.
  const methods = new Map<string, string>();
  for (const line of execFileSync("unzip", ["-v", file], { encoding: "utf8" }).split("\n")) {
    const m = /^\s*\d+\s+(Stored|Defl:\w)\s+\d+\s+\S+\s+\S+\s+\S+\s+[0-9a-f]{8}\s+(.+)$/.exec(line);
    if (m) methods.set(m[2]!, m[1]!);
  }
  const entry = (name: string) => execFileSync("unzip", ["-p", file, name.replace(/[[\]*?]/g, "\\$&")]);
  return { res, names, methods, entry };
}

describe("single-asset download", () => {
  it("answers a signed direct_url serving the same bytes, to a COMMENTER too", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const photo = await upload(admin.client, ws.id, "Café.jpg", await jpeg(1));
    const res = await download(members.COMMENTER!.client, ws.id, { asset_ids: [photo.id] });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ filename: "Café.jpg", size: photo.data.length, mime_type: "image/jpeg" });
    if (testStorage === "s3") {
      // S3 serves the bytes itself: a presigned GET that names the file.
      expect(answer.direct_url).toMatch(new RegExp(`/media/${ws.id}/${photo.id}/original\\?.*X-Amz-Signature=`));
      expect(new URL(answer.direct_url).searchParams.get("response-content-disposition")).toMatch(
        /^attachment; filename="Caf_\.jpg"; filename\*=UTF-8''Caf%C3%A9\.jpg$/,
      );
    } else {
      expect(answer.direct_url).toMatch(new RegExp(`^/media/${ws.id}/${photo.id}/original\\?exp=\\d+&sig=`));
    }
    // No session at all: the URL is the proof.
    const got = await requestUrl(env.app, "GET", answer.direct_url);
    expect(got.statusCode).toBe(200);
    expect(sha(got.rawPayload)).toBe(sha(photo.data));
  });

  it("answers parts of part_size that cover the file exactly; Range GETs joined give the same file", async () => {
    const { ws, admin } = await workspaceWith(env);
    const photo = await upload(admin.client, ws.id, "big.jpg", await jpeg(2, 700));
    const partSize = 65_536;
    const res = await download(admin.client, ws.id, {
      asset_ids: [photo.id],
      use_multipart: true,
      part_size: partSize,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { parts, size } = res.json();
    expect(size).toBe(photo.data.length);
    expect(parts.length).toBe(Math.ceil(size / partSize));
    let next = 0;
    const chunks: Buffer[] = [];
    for (const [i, p] of parts.entries()) {
      expect(p).toMatchObject({ part_number: i + 1, start_byte: next });
      expect(p.end_byte - p.start_byte + 1).toBe(i === parts.length - 1 ? size - next : partSize);
      next = p.end_byte + 1;
      const r = await requestUrl(env.app, "GET", p.url, { headers: { range: `bytes=${p.start_byte}-${p.end_byte}` } });
      expect(r.statusCode).toBe(206);
      chunks.push(r.rawPayload);
    }
    expect(next).toBe(size);
    expect(sha(Buffer.concat(chunks))).toBe(sha(photo.data));
  });
});

describe("board and unified zips", () => {
  // B: photo.jpg ×2 (same name), notes.txt; B/Sub: sub.jpg and the first photo again; B/Sub/Deep: deep.jpg.
  async function library() {
    const w = await workspaceWith(env, ["COMMENTER"]);
    const c = w.admin.client;
    const b = await board(c, w.ws.id, "Summer Trip");
    const sub = await board(c, w.ws.id, "Sub", b);
    const deep = await board(c, w.ws.id, "Deep", sub);
    const p1 = await upload(c, w.ws.id, "photo.jpg", await jpeg(3), b);
    const p2 = await upload(c, w.ws.id, "photo.jpg", await jpeg(4), b);
    const notes = await upload(c, w.ws.id, "notes.txt", text("hello zip"), b);
    const s1 = await upload(c, w.ws.id, "sub.jpg", await jpeg(5), sub);
    const d1 = await upload(c, w.ws.id, "deep.jpg", await jpeg(6), deep);
    expect((await c.post(`/workspaces/${w.ws.id}/boards/${sub}/assets`, { asset_ids: [p1.id] })).statusCode).toBe(200);
    return { ...w, b, sub, deep, p1, p2, notes, s1, d1 };
  }
  let lib: Awaited<ReturnType<typeof library>>;
  beforeAll(async () => {
    lib = await library();
  });
  const zipOf = async (body: Record<string, unknown>, c = lib.admin.client) => {
    const res = await download(c, lib.ws.id, body);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer.download_url).toMatch(new RegExp(`^${ZIP_PATH}\\?spec=[\\w-]+&exp=\\d+&sig=`));
    return { answer, ...(await fetchZip(answer.download_url)) };
  };

  it("keeps the structure: own assets at the root, sub-boards nested, an asset in each of its boards", async () => {
    const z = await zipOf({ board_ids: [lib.b] }, lib.members.COMMENTER!.client);
    expect(z.answer.filename).toBe("Summer Trip.zip");
    expect(z.res.headers["content-disposition"]).toBe(
      `attachment; filename="Summer Trip.zip"; filename*=UTF-8''Summer%20Trip.zip`,
    );
    expect(z.names.sort()).toEqual(
      [
        "notes.txt",
        "photo.jpg",
        "photo (2).jpg",
        "Sub/",
        "Sub/photo.jpg",
        "Sub/sub.jpg",
        "Sub/Deep/",
        "Sub/Deep/deep.jpg",
      ].sort(),
    );
    expect(sha(z.entry("Sub/Deep/deep.jpg"))).toBe(sha(lib.d1.data));
    expect(sha(z.entry("Sub/photo.jpg"))).toBe(sha(lib.p1.data));
    // Both same-named photos are there, one renamed " (2)" before its extension.
    expect(new Set([sha(z.entry("photo.jpg")), sha(z.entry("photo (2).jpg"))])).toEqual(
      new Set([sha(lib.p1.data), sha(lib.p2.data)]),
    );
    // Store for JPEG (already compressed), deflate for text.
    expect(z.methods.get("photo.jpg")).toBe("Stored");
    expect(z.methods.get("Sub/Deep/deep.jpg")).toBe("Stored");
    expect(z.methods.get("notes.txt")).toMatch(/^Defl/);
    expect(z.entry("notes.txt").toString()).toBe(text("hello zip").toString());
  });

  it("flattens: every asset once, at the root", async () => {
    const z = await zipOf({ board_ids: [lib.b], flatten_structure: true });
    expect(z.names.sort()).toEqual(["deep.jpg", "notes.txt", "photo (2).jpg", "photo.jpg", "sub.jpg"].sort());
  });

  it("leaves sub-boards out with include_subboards false", async () => {
    const z = await zipOf({ board_ids: [lib.b], include_subboards: false });
    expect(z.names.sort()).toEqual(["notes.txt", "photo (2).jpg", "photo.jpg"].sort());
  });

  it("unified: chosen assets at the root, one folder per chosen board; named download-{date}.zip", async () => {
    const z = await zipOf({ asset_ids: [lib.notes.id, lib.d1.id], board_ids: [lib.sub] });
    expect(z.answer.filename).toBe(`download-${new Date().toISOString().slice(0, 10)}.zip`);
    expect(z.names.sort()).toEqual(
      ["deep.jpg", "notes.txt", "Sub/", "Sub/photo.jpg", "Sub/sub.jpg", "Sub/Deep/", "Sub/Deep/deep.jpg"].sort(),
    );
  });

  it("refuses another workspace's asset or board with 404, and outsiders with 404", async () => {
    const other = await workspaceWith(env);
    const foreignBoard = await board(other.admin.client, other.ws.id, "Theirs");
    expect((await download(lib.admin.client, other.ws.id, { board_ids: [lib.b] })).statusCode).toBe(404);
    const mine = lib.admin.client;
    expect((await download(mine, lib.ws.id, { board_ids: [foreignBoard] })).statusCode).toBe(404);
    const foreignAsset = await upload(other.admin.client, other.ws.id, "x.jpg", await jpeg(7));
    expect((await download(mine, lib.ws.id, { asset_ids: [foreignAsset.id] })).statusCode).toBe(404);
    expect((await download(mine, lib.ws.id, { asset_ids: [foreignAsset.id, lib.p1.id] })).statusCode).toBe(404);
    const outsider = await signedInUser(env);
    expect((await download(outsider.client, lib.ws.id, { board_ids: [lib.b] })).statusCode).toBe(404);
  });

  it("answers 404 to a forged or expired signature, and to a member removed since", async () => {
    const { answer } = await zipOf({ board_ids: [lib.deep] });
    const anon = new Client(env.app);
    expect((await anon.get(answer.download_url.replace(/sig=[^&]+/, "sig=forged"))).statusCode).toBe(404);
    expect((await anon.get(answer.download_url.replace(/\?.*$/, ""))).statusCode).toBe(404);
    const spec = new URL(answer.download_url, "http://x").searchParams.get("spec");
    const resign = async (signedSpec: string, ttl: number) => {
      const signed = await env.rt.signer.sign("GET", `${ZIP_PATH}/${signedSpec}`, ttl);
      return `${ZIP_PATH}?spec=${spec}&${signed.split("?")[1]}`;
    };
    expect((await anon.get(await resign(spec!, 60))).statusCode).toBe(200);
    expect((await anon.get(await resign(spec!, -10))).statusCode).toBe(404);
    // A signature over another spec does not carry over.
    expect((await anon.get(await resign(`${spec}x`, 60))).statusCode).toBe(404);

    const c = lib.members.COMMENTER!;
    const mine = (await download(c.client, lib.ws.id, { board_ids: [lib.deep] })).json();
    await env.rt.db.deleteFrom("memberships").where("user_id", "=", c.user.id).execute();
    expect((await anon.get(mine.download_url)).statusCode).toBe(404);
  });
});

describe("what goes in", () => {
  it("sanitises hostile names inside the zip and keeps Unicode", async () => {
    const { ws, admin } = await workspaceWith(env);
    const ids: string[] = [];
    const hostile = [
      "../../etc/passwd",
      "a\\b.txt",
      "/abs/x.txt",
      "x\u0001y\u007fz.txt",
      "evil\u202Etxt.exe",
      "日本語 ü.txt",
    ];
    for (const [i, name] of hostile.entries()) {
      const a = await upload(admin.client, ws.id, `f${i}.txt`, text(`file ${i}`));
      await env.rt.db.updateTable("assets").set({ name }).where("id", "=", a.id).execute();
      ids.push(a.id);
    }
    const res = await download(admin.client, ws.id, { asset_ids: ids });
    expect(res.statusCode, res.body).toBe(200);
    const z = await fetchZip(res.json().download_url);
    expect(z.names.sort()).toEqual(
      ["_._etc_passwd.txt", "a_b.txt", "_abs_x.txt", "xyz.txt", "eviltxt.exe.txt", "日本語 ü.txt"].sort(),
    );
    for (const n of z.names) {
      expect(n).not.toMatch(/\.\.|^\/|\\|\p{Cc}/u);
    }
    expect(z.entry("_._etc_passwd.txt").toString()).toBe(text("file 0").toString());
  }, 120_000); // six .txt files, each converted by LibreOffice for its preview where it is installed

  it("sanitises NUL and other segments PostgreSQL could not even store", () => {
    expect(sanitizeSegment("x\u0000y")).toBe("xy");
    expect(sanitizeSegment("..")).toBe("untitled");
    expect(sanitizeSegment(" C:\\Windows\\evil. ")).toBe("C__Windows_evil");
    expect([...sanitizeSegment(`${"é".repeat(300)}.jpg`)].length).toBe(200);
    expect(sanitizeSegment(`${"é".repeat(300)}.jpg`).endsWith(".jpg")).toBe(true);
  });

  it("renames folder and file names that Windows reserves for devices", () => {
    expect(sanitizeSegment("CON")).toBe("CON_");
    expect(sanitizeSegment("con.txt")).toBe("con_.txt");
    expect(sanitizeSegment("Lpt9.tar.gz")).toBe("Lpt9_.tar.gz");
    expect(sanitizeSegment("COM\u00b9")).toBe("COM\u00b9_");
    expect(sanitizeSegment("aux ")).toBe("aux_");
    expect(sanitizeSegment("CONSOLE")).toBe("CONSOLE");
    expect(sanitizeSegment("nullable.txt")).toBe("nullable.txt");
  });

  it("leaves deleted assets out of zips and answers 404 for them alone", async () => {
    const { ws, admin } = await workspaceWith(env);
    const b = await board(admin.client, ws.id, "B");
    const keep = await upload(admin.client, ws.id, "keep.jpg", await jpeg(8), b);
    const gone = await upload(admin.client, ws.id, "gone.jpg", await jpeg(9), b);
    const before = (await download(admin.client, ws.id, { board_ids: [b] })).json();
    expect((await admin.client.del(`/workspaces/${ws.id}/assets`, { asset_ids: [gone.id] })).statusCode).toBe(200);
    // Deleted after the URL was handed out: left out when the zip is streamed.
    expect((await fetchZip(before.download_url)).names).toEqual(["keep.jpg"]);
    expect((await download(admin.client, ws.id, { asset_ids: [gone.id] })).statusCode).toBe(404);
    expect((await download(admin.client, ws.id, { asset_ids: [keep.id, gone.id] })).statusCode).toBe(404);
  });

  it("answers the three validation errors with the spec's exact texts", async () => {
    const { ws, admin } = await workspaceWith(env);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, DOWNLOAD_ERRORS.nothing],
      [{ asset_ids: [], board_ids: [] }, DOWNLOAD_ERRORS.nothing],
      [{ asset_ids: [] }, DOWNLOAD_ERRORS.noAsset],
      [{ use_multipart: true, part_size: 2 * 1024 * 1024 }, DOWNLOAD_ERRORS.noAsset],
      [{ board_ids: [] }, DOWNLOAD_ERRORS.noBoard],
    ];
    for (const [body, detail] of cases) {
      const res = await download(admin.client, ws.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail).toBe(detail);
    }
    expect(DOWNLOAD_ERRORS).toEqual({
      nothing: "Must provide at least one asset ID or board ID",
      noAsset: "No asset provided",
      noBoard: "No board provided",
    });
  });
});

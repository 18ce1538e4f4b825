import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3TestServer, startS3Server } from "../../test/s3-server.ts";
import type { BlobStore, UploadRef } from "./blob-store.ts";
import { createDiskStore } from "./disk-store.ts";
import { createS3Store } from "./s3-store.ts";

/** The S3 store against a real S3-protocol server on loopback; `list` on both stores. */
let s3: S3TestServer;
let store: BlobStore;
let tmp: string;
beforeAll(async () => {
  s3 = await startS3Server();
  store = createS3Store({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: "us-east-1",
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  });
  tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-s3-store-"));
});
afterAll(async () => {
  await store.close?.();
  await s3.close();
  await rm(tmp, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const md5 = (b: Buffer) => createHash("md5").update(b).digest("hex");
const text = async (r: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
const put = (url: string, body: Buffer, headers: Record<string, string> = {}) =>
  fetch(url, { method: "PUT", body: new Uint8Array(body), headers });

describe("objects", () => {
  it("streams small and multi-part bodies in, reads ranges back, stats, lists, moves and deletes", async () => {
    const small = randomBytes(1000);
    const big = randomBytes(17 * 1024 * 1024 + 5); // three 8 MiB parts, the last short
    const p1 = await store.putStream("media/w/a/small", Readable.from([small]));
    expect(p1).toMatchObject({ size: 1000, sha256: sha(small), etag: md5(small) });
    const p2 = await store.putStream("media/w/a/big", Readable.from([big.subarray(0, 3e6), big.subarray(3e6)]));
    expect(p2).toMatchObject({ size: big.length, sha256: sha(big) });
    expect((await text(await store.read("media/w/a/big"))).equals(big)).toBe(true);
    const range = await text(await store.read("media/w/a/big", { start: 9_000_000, end: 9_000_099 }));
    expect(range.equals(big.subarray(9_000_000, 9_000_100))).toBe(true);
    expect(await store.stat("media/w/a/small")).toMatchObject({ size: 1000 });
    expect(await store.stat("media/w/a/none")).toBeNull();

    const file = path.join(tmp, "r.jpg");
    await writeFile(file, small);
    await store.putFile("media/w/a2/thumb.jpg", file);
    await store.move("media/w/a/small", "media/w/a/moved");
    expect(await store.stat("media/w/a/small")).toBeNull();
    const listed = [];
    for await (const o of store.list("media/w/")) listed.push(o);
    expect(listed).toEqual([
      { key: "media/w/a/big", size: big.length },
      { key: "media/w/a/moved", size: 1000 },
      { key: "media/w/a2/thumb.jpg", size: 1000 },
    ]);
    // A prefix is a directory: media/w/a does not take media/w/a2 with it.
    await store.deletePrefix("media/w/a");
    const left = [];
    for await (const o of store.list("media/")) left.push(o.key);
    expect(left).toEqual(["media/w/a2/thumb.jpg"]);
  });

  it("refuses a body over maxBytes and leaves nothing behind", async () => {
    await expect(store.putStream("media/w/b/x", Readable.from([randomBytes(100)]), { maxBytes: 99 })).rejects.toThrow(
      /larger/,
    );
    expect(await store.stat("media/w/b/x")).toBeNull();
  });

  it("hands out presigned GETs that name the download", async () => {
    await store.putStream("media/w/c/original", Readable.from([Buffer.from("hello")]));
    const url = await store.presignGet("media/w/c/original", {
      ttlSeconds: 60,
      contentDisposition: 'attachment; filename="hi.txt"',
      contentType: "text/plain",
    });
    const res = await fetch(url ?? "");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="hi.txt"');
    expect(await res.text()).toBe("hello");
    const forged = await fetch((url ?? "").replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${"0".repeat(64)}`));
    expect(forged.status).toBe(403);
  });
});

describe("uploads through presigned URLs", () => {
  const ref = async (size: number, partSize: number, kind: "direct" | "multipart"): Promise<UploadRef> => {
    const base = {
      id: randomUUID(),
      key: `media/w/${randomUUID()}/original`,
      size,
      partSize,
      partCount: Math.ceil(size / partSize),
      kind,
    };
    return { ...base, ...(await store.beginUpload(base)) };
  };

  it("direct: the signed length is enforced, the named ETag is the one copied, the hash is the object's", async () => {
    const data = randomBytes(3000);
    const u = await ref(data.length, data.length, "direct");
    const [url = ""] = await store.partUrls(u, 600);
    expect(url).toMatch(/X-Amz-Signature=/);
    expect((await put(url, randomBytes(2999))).status).toBe(403);
    const first = await put(url, Buffer.from(data).fill(1));
    const res = await put(url, data);
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(`"${md5(data)}"`);
    expect(await store.receivedParts(u)).toEqual([{ partNumber: 1, size: data.length, etag: md5(data) }]);
    // An ETag of earlier bytes: S3 refuses the copy (precondition), nothing is assembled.
    await expect(
      store.completeUpload(u, [{ partNumber: 1, etag: first.headers.get("etag") ?? "" }]),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    const done = await store.completeUpload(u, [{ partNumber: 1, etag: md5(data) }]);
    expect(done).toEqual({ size: data.length, sha256: sha(data) });
    expect(await store.receivedParts(u)).toBe("assembled");
    // Again (a retried complete): the same answer.
    expect(await store.completeUpload(u, [{ partNumber: 1, etag: md5(data) }])).toEqual(done);
  });

  it("multipart: ListParts, a stale ETag refused, complete, complete again, abort", async () => {
    const partSize = 5 * 1024 * 1024;
    const data = randomBytes(partSize + 1234);
    const u = await ref(data.length, partSize, "multipart");
    expect(u.storeUploadId).toBeTruthy();
    const urls = await store.partUrls(u, 600);
    expect(urls).toHaveLength(2);
    const r1 = await put(urls[0] ?? "", data.subarray(0, partSize));
    const stale = await put(urls[1] ?? "", randomBytes(1234));
    const r2 = await put(urls[1] ?? "", data.subarray(partSize));
    expect([r1.status, stale.status, r2.status]).toEqual([200, 200, 200]);
    const parts = await store.receivedParts(u);
    expect(parts).toEqual([
      { partNumber: 1, size: partSize, etag: md5(data.subarray(0, partSize)) },
      { partNumber: 2, size: 1234, etag: md5(data.subarray(partSize)) },
    ]);
    await expect(
      store.completeUpload(u, [
        { partNumber: 1, etag: r1.headers.get("etag") ?? "" },
        { partNumber: 2, etag: stale.headers.get("etag") ?? "" },
      ]),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    const final = [
      { partNumber: 1, etag: r1.headers.get("etag") ?? "" },
      { partNumber: 2, etag: r2.headers.get("etag") ?? "" },
    ];
    expect(await store.completeUpload(u, final)).toEqual({ size: data.length, sha256: sha(data) });
    expect(await store.completeUpload(u, final)).toEqual({ size: data.length, sha256: sha(data) });
    // The upload is gone with its URLs: a part PUT now fails.
    expect((await put(urls[0] ?? "", data.subarray(0, partSize))).status).toBe(404);

    const abandoned = await ref(data.length, partSize, "multipart");
    await put((await store.partUrls(abandoned, 600))[0] ?? "", data.subarray(0, partSize));
    await store.abortUpload(abandoned);
    expect(await store.receivedParts(abandoned)).toEqual([]);
    await store.abortUpload(abandoned); // twice is fine
  });
});

describe("list on disk", () => {
  it("answers every file under a prefix in key order, skipping the temp directory", async () => {
    const root = path.join(tmp, "disk");
    const disk = createDiskStore(root);
    try {
      for (const key of ["media/w/b/x", "media/w/a/z", "media/w/a/y", "media/w/a2/q", "uploads/u/data"]) {
        await disk.putStream(key, Readable.from([Buffer.from(key)]));
      }
      const keys = [];
      for await (const o of disk.list("media/w/a")) keys.push(`${o.key}:${o.size}`);
      expect(keys).toEqual(["media/w/a/y:11", "media/w/a/z:11", "media/w/a2/q:12"]);
      const all = [];
      for await (const o of disk.list("")) all.push(o.key);
      expect(all).toEqual(["media/w/a/y", "media/w/a/z", "media/w/a2/q", "media/w/b/x", "uploads/u/data"]);
    } finally {
      await disk.close?.();
    }
  });
});

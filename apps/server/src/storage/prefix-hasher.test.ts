import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, open, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrefixHasher } from "./prefix-hasher.ts";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const PART = 64 * 1024;

describe("prefix hasher", () => {
  const hasher = createPrefixHasher();
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "hangar-hash-"));
  });
  afterAll(async () => {
    await hasher.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function writeAt(file: string, offset: number, bytes: Buffer) {
    const fh = await open(file, "a");
    await fh.close();
    const w = await open(file, "r+");
    await w.write(bytes, 0, bytes.length, offset);
    await w.close();
  }

  it("hashes parts that arrive out of order, and a part re-sent after it was hashed", async () => {
    const data = randomBytes(PART * 3 + 17);
    const file = path.join(dir, "a");
    const parts = [0, 1, 2, 3].map((i) => ({ offset: i * PART, bytes: data.subarray(i * PART, (i + 1) * PART) }));
    const etags = ["e0", "e1", "e2", "e3"];
    for (const i of [2, 0, 3, 1]) {
      const p = parts[i]!;
      await writeAt(file, p.offset, p.bytes);
      hasher.partWritten("u1", file, p.offset, p.bytes.length, etags[i]!);
    }
    // Part 0 re-sent with other bytes, then with the right ones: the hash must follow the last write.
    const wrong = Buffer.alloc(PART, 7);
    await writeAt(file, 0, wrong);
    hasher.partWritten("u1", file, 0, PART, "e0-wrong");
    await writeAt(file, 0, parts[0]!.bytes);
    hasher.partWritten("u1", file, 0, PART, "e0-again");
    etags[0] = "e0-again";
    const final = parts.map((p, i) => ({ offset: p.offset, etag: etags[i]! }));
    expect(await hasher.finish("u1", file, data.length, final)).toBe(sha(data));
  });

  it("hashes the whole file when it saw none of the parts (another process, or a restart)", async () => {
    const data = randomBytes(PART * 2);
    const file = path.join(dir, "b");
    await writeAt(file, 0, data);
    expect(await hasher.finish("u2", file, data.length, [{ offset: 0, etag: "x" }])).toBe(sha(data));
  });

  it("starts again when a hashed part is not the final write of that part", async () => {
    const data = randomBytes(PART * 2);
    const file = path.join(dir, "c");
    await writeAt(file, 0, Buffer.alloc(PART, 1));
    hasher.partWritten("u3", file, 0, PART, "stale");
    await writeAt(file, PART, data.subarray(PART));
    hasher.partWritten("u3", file, PART, PART, "p1");
    // The right part 0 was written by someone this hasher never heard of.
    await writeAt(file, 0, data.subarray(0, PART));
    const final = [
      { offset: 0, etag: "fresh" },
      { offset: PART, etag: "p1" },
    ];
    expect(await hasher.finish("u3", file, data.length, final)).toBe(sha(data));
  });
});

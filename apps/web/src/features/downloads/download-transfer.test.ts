import type { DownloadPart } from "@hangar/contract";
import { DOWNLOAD_MESSAGES } from "@hangar/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DownloadError, downloadParts, parseDownloadAnswer } from "./download-transfer";

const parts = (sizes: number[]): DownloadPart[] => {
  let start = 0;
  return sizes.map((size, i) => {
    const p = { part_number: i + 1, start_byte: start, end_byte: start + size - 1, url: "/media/x/original?sig=1" };
    start += size;
    return p;
  });
};

const deferred = <T>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe("downloadParts", () => {
  it("joins parts in part_number order whatever order they arrive and are listed in", async () => {
    const list = parts([3, 3, 3, 2]);
    const waits = new Map(list.map((p) => [p.part_number, deferred<Blob>()]));
    const progress: Array<[number, number]> = [];
    const result = downloadParts([list[2]!, list[0]!, list[3]!, list[1]!], "text/plain", {
      concurrency: 4,
      fetchPart: (p) => waits.get(p.part_number)!.promise,
      onPart: (done, total) => progress.push([done, total]),
    });
    // Finish in a scrambled order: 4, 2, 1, 3.
    const text = ["aaa", "bbb", "ccc", "dd"];
    for (const n of [4, 2, 1, 3]) {
      waits.get(n)!.resolve(new Blob([text[n - 1]!]));
      await Promise.resolve();
    }
    const blob = await result;
    expect(await blob.text()).toBe("aaabbbcccdd");
    expect(blob.type).toBe("text/plain");
    expect(progress).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
  });

  it("never has more than `concurrency` parts in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const blob = await downloadParts(parts([1, 1, 1, 1, 1, 1, 1]), "application/octet-stream", {
      concurrency: 3,
      fetchPart: async (p) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight -= 1;
        return new Blob([String(p.part_number)]);
      },
    });
    expect(most).toBe(3);
    expect(await blob.text()).toBe("1234567");
  });

  it("fails with the failing part's error and stops asking for more", async () => {
    const asked: number[] = [];
    await expect(
      downloadParts(parts([1, 1, 1, 1, 1]), "x/y", {
        concurrency: 1,
        fetchPart: async (p) => {
          asked.push(p.part_number);
          if (p.part_number === 2) throw new DownloadError(DOWNLOAD_MESSAGES.partFailed(2));
          return new Blob(["x"]);
        },
      }),
    ).rejects.toThrow("Failed to download part 2");
    expect(asked).toEqual([1, 2]);
  });
});

// Development builds ask the contract's schemas; production builds (no zod) check by hand.
describe.each([true, false])("parseDownloadAnswer (development build: %s)", (dev) => {
  beforeEach(() => vi.stubEnv("DEV", dev));
  afterEach(() => vi.unstubAllEnvs());

  it("tells the three answers apart", () => {
    expect(parseDownloadAnswer({ direct_url: "/m/1", filename: "a.jpg", size: 3, mime_type: "image/jpeg" })).toEqual({
      kind: "direct",
      url: "/m/1",
      filename: "a.jpg",
      mimeType: "image/jpeg",
    });
    const p = parts([4, 4]);
    expect(
      parseDownloadAnswer({ parts: p, part_size: 4, filename: "b.mov", size: 8, mime_type: "video/quicktime" }),
    ).toMatchObject({ kind: "parts", parts: p, filename: "b.mov", mimeType: "video/quicktime", size: 8 });
    expect(parseDownloadAnswer({ download_url: "/api/v1/downloads/zip?spec=x", filename: "Shoot.zip" })).toEqual({
      kind: "zip",
      url: "/api/v1/downloads/zip?spec=x",
      filename: "Shoot.zip",
    });
  });
  it("answers 'Invalid download response' for anything else", () => {
    for (const bad of [null, {}, { url: "x" }, { direct_url: 5 }, "text"]) {
      expect(() => parseDownloadAnswer(bad)).toThrow(DOWNLOAD_MESSAGES.invalidResponse);
    }
  });
});

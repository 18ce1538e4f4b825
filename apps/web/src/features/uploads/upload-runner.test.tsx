import { assetsApi, type UploadInitAnswer, uploadsApi } from "@hangar/contract";
import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { failure, installFakeApi } from "../../test/fake-api";
import { installFakeXhr, type XhrRequest } from "../../test/fake-xhr";
import { anAsset, anId, WORKSPACE_ID } from "../../test/fixtures";
import { renderWithApp } from "../../test/render";
import { UploadItemRow } from "./components/upload-item-row";
import { CANCELLED_MESSAGE, cancelUpload, retryUpload, startUploads, stopAllUploads } from "./upload-runner";
import { uploadStore } from "./upload-store";

/**
 * The upload runner against the two network boundaries: the API (init and complete, through fetch)
 * and the signed part URLs (bytes, through XHR). Time is vitest's: the back-off between tries is
 * stepped through, never waited for.
 */
const api = installFakeApi();
const xhr = installFakeXhr();

const ASSET_ID = "44444444-4444-4444-8444-444444444444";
const PART = 1024;

/** The upload the last serveMultipart() start answered. */
let lastUpload = { upload_id: "", key: "" };
const aborts = () => api.callsTo(uploadsApi.abort).map((c) => c.body);

/** Init answers two signed part URLs (a multipart upload); complete answers ok. */
function serveMultipart() {
  const upload_id = anId();
  lastUpload = { upload_id, key: "ws/asset/original.bin" };
  const answer: UploadInitAnswer = {
    asset_id: ASSET_ID,
    upload_id,
    key: "ws/asset/original.bin",
    parts: [1, 2].map((n) => ({
      part_number: n,
      start_byte: (n - 1) * PART,
      end_byte: n * PART - 1,
      url: `https://s3.test/bucket/key?partNumber=${n}`,
    })),
  };
  api.on(uploadsApi.init, answer);
  api.on(uploadsApi.complete, { status: "ok", asset_id: ASSET_ID, size: 2 * PART, sha256: "ab" });
  api.on(uploadsApi.abort, { status: "ok" });
  // The processing poller, once the bytes are in: still processing.
  api.on(assetsApi.get, anAsset({ id: ASSET_ID, status: "processing" }));
}

const partOf = (r: XhrRequest) => Number(new URL(r.url).searchParams.get("partNumber"));
const triesOf = (part: number) => xhr.requests.filter((r) => partOf(r) === part).length;
const ok = (r: XhrRequest) => ({ status: 200, etag: `"etag-${partOf(r)}"` });

function upload(): string {
  const file = new File([new Uint8Array(2 * PART)], "clip.mov", { type: "video/quicktime" });
  startUploads([{ file, path: null }], { workspaceId: WORKSPACE_ID, boardId: null });
  const [item] = uploadStore.getState().items;
  if (!item) throw new Error("nothing queued");
  return item.id;
}

/** Lets pending promises and due timers run (time stands still) until `check` holds. */
async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await vi.advanceTimersByTimeAsync(0);
  }
  throw new Error(`never happened: ${what}`);
}

const item = (id: string) => uploadStore.get(id);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  stopAllUploads();
  vi.useRealTimers();
});

describe("upload runner: retries (spec 01 §4)", () => {
  it("tries a failed part again after 500 ms, then completes", async () => {
    serveMultipart();
    let failed = false;
    xhr.answer((r) => {
      if (partOf(r) === 2 && !failed) {
        failed = true;
        return { status: 503, body: { message: "Slow down" } };
      }
      return ok(r);
    });
    const id = upload();
    await until(() => triesOf(2) === 1 && failed, "part 2 fails once");
    await vi.advanceTimersByTimeAsync(499);
    expect(triesOf(2)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => item(id)?.status === "processing", "the upload completes");

    expect(triesOf(1)).toBe(1);
    expect(triesOf(2)).toBe(2);
    const [complete] = api.callsTo(uploadsApi.complete);
    expect(complete?.body).toMatchObject({
      parts: [
        { part_number: 1, etag: '"etag-1"' },
        { part_number: 2, etag: '"etag-2"' },
      ],
    });
    expect(item(id)).toMatchObject({ assetId: ASSET_ID, error: null, loaded: 2 * PART });
  });

  it("backs off 500 ms then 1.5 s, and gives up after three tries with the part's message", async () => {
    serveMultipart();
    xhr.answer((r) => (partOf(r) === 1 ? "network-error" : ok(r)));
    const id = upload();
    await until(() => triesOf(1) === 1, "the first try");
    await vi.advanceTimersByTimeAsync(500);
    await until(() => triesOf(1) === 2, "the second try");
    await vi.advanceTimersByTimeAsync(1499);
    expect(triesOf(1)).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => item(id)?.status === "error", "the upload fails");
    expect(triesOf(1)).toBe(3);
    expect(item(id)?.error).toBe("Part upload failed (part 1 of 2): S3 upload failed: Network error");
    expect(api.callsTo(uploadsApi.complete)).toEqual([]);
    // A failed file is given up on the server (a retry starts afresh).
    expect(aborts()).toEqual([lastUpload]);
    // Nothing more is tried later.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(triesOf(1)).toBe(3);
  });

  it("does not try a part again after a 4xx, and shows its message", async () => {
    serveMultipart();
    xhr.answer((r) => (partOf(r) === 2 ? { status: 403, body: { message: "Request has expired" } } : ok(r)));
    const id = upload();
    await until(() => item(id)?.status === "error", "the upload fails");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(triesOf(2)).toBe(1);
    const message = "Part upload failed (part 2 of 2): 403 Request has expired";
    expect(item(id)?.error).toBe(message);
    expect(api.callsTo(uploadsApi.complete)).toEqual([]);

    vi.useRealTimers();
    const failed = item(id);
    if (!failed) throw new Error("the item is gone");
    renderWithApp(<UploadItemRow item={failed} />);
    expect(screen.getByText(message)).toBeTruthy();
    expect(screen.getByText("Error")).toBeTruthy();
  });

  it("does not ask again when the server refuses the upload (4xx), and says why", async () => {
    api.on(uploadsApi.init, failure(413, "File too large for this workspace"));
    const id = upload();
    await until(() => item(id)?.status === "error", "the upload fails");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.callsTo(uploadsApi.init)).toHaveLength(1);
    expect(xhr.requests).toEqual([]);
    // Nothing was started, so there is nothing to give up.
    expect(aborts()).toEqual([]);
    expect(item(id)?.error).toBe("Upload failed: 413 File too large for this workspace");
    expect(item(id)?.planLimit).toBe(false);
  });

  it("marks a 402 as the plan's limit", async () => {
    api.on(uploadsApi.init, failure(402, "Your plan's storage is full"));
    const id = upload();
    await until(() => item(id)?.status === "error", "the upload fails");
    expect(item(id)).toMatchObject({ error: "Upload failed: 402 Your plan's storage is full", planLimit: true });
  });

  it("tries completing again after a server error, with the same back-off", async () => {
    serveMultipart();
    xhr.answer(ok);
    let completes = 0;
    api.on(uploadsApi.complete, () =>
      ++completes === 1 ? failure(502) : { status: "ok" as const, asset_id: ASSET_ID, size: 2 * PART, sha256: "ab" },
    );
    const id = upload();
    await until(() => completes === 1, "the first complete");
    await vi.advanceTimersByTimeAsync(499);
    expect(completes).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => item(id)?.status === "processing", "the upload completes");
    expect(completes).toBe(2);
    expect(aborts()).toEqual([]);
  });
});

describe("upload runner: cancel", () => {
  it("stops during the wait before another try: no more requests", async () => {
    serveMultipart();
    xhr.answer((r) => (partOf(r) === 1 ? { status: 500 } : ok(r)));
    const id = upload();
    await until(() => triesOf(1) === 1 && triesOf(2) === 1, "both parts tried");
    await vi.advanceTimersByTimeAsync(100);
    cancelUpload(id);
    expect(item(id)).toMatchObject({ status: "error", error: CANCELLED_MESSAGE });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(triesOf(1)).toBe(1);
    expect(api.callsTo(uploadsApi.complete)).toEqual([]);
    // The runner's own failure does not overwrite what the user did.
    expect(item(id)?.error).toBe(CANCELLED_MESSAGE);
  });

  it("aborts the parts in flight", async () => {
    serveMultipart();
    xhr.answer(() => undefined); // held: the bytes are on their way
    const id = upload();
    await until(() => xhr.requests.length === 2, "both parts sent");
    cancelUpload(id);
    expect(xhr.requests.every((r) => r.aborted)).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(xhr.requests).toHaveLength(2);
    expect(item(id)).toMatchObject({ status: "error", error: CANCELLED_MESSAGE });
    expect(api.callsTo(uploadsApi.complete)).toEqual([]);
    // The server is told too: the asset it made at the start goes now, not a day later.
    expect(aborts()).toEqual([lastUpload]);
  });

  it("a cancelled upload can be retried from the start", async () => {
    serveMultipart();
    xhr.answer(() => undefined);
    const id = upload();
    await until(() => xhr.requests.length === 2, "both parts sent");
    cancelUpload(id);
    xhr.answer(ok);
    retryUpload(id);
    await until(() => item(id)?.status === "processing", "the retried upload completes");
    expect(api.callsTo(uploadsApi.init)).toHaveLength(2);
    expect(xhr.requests).toHaveLength(4);
  });
});

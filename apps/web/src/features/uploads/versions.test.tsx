import { createHash } from "node:crypto";
import {
  PROCESSING_POLL_MS,
  type UploadDuplicate,
  type UploadInitAnswer,
  uploadsApi,
  versionsApi,
} from "@hangar/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installFakeApi } from "../../test/fake-api";
import { installFakeXhr } from "../../test/fake-xhr";
import { anId, aVersion, WORKSPACE_ID } from "../../test/fixtures";
import { renderWithApp } from "../../test/render";
import { DuplicatePrompt } from "./components/duplicate-prompt";
import { UploadItemRow } from "./components/upload-item-row";
import { whereIs } from "./duplicates";
import { startUploads, startVersionUpload, stopAllUploads } from "./upload-runner";
import { uploadStore } from "./upload-store";

/**
 * Versions and duplicates at upload (issue 29), through the runner against the API and the signed
 * URLs: a new version's start names its asset, and a file whose bytes are already here waits for
 * the user's choice. Real timers: WebCrypto hashes the file in its own time.
 */
const api = installFakeApi();
const xhr = installFakeXhr();

const POSTER = "55555555-5555-4555-8555-555555555555";
const bytes = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
const sha = createHash("sha256").update(bytes).digest("hex");
const duplicate: UploadDuplicate = {
  asset_id: POSTER,
  version_id: anId(),
  version_number: 1,
  name: "poster.jpg",
  boards: [{ id: anId(), name: "Launch" }],
  deleted: false,
};

/** The uploads each start answered, in order. */
let started: Array<{ upload_id: string; key: string }> = [];
const aborts = () => api.callsTo(uploadsApi.abort).map((c) => c.body);

/** Init answers a direct URL (with what `extra` adds); the PUT and complete succeed. */
function serve(extra: (body: Record<string, unknown>) => Partial<UploadInitAnswer> = () => ({})) {
  api.on(uploadsApi.init, (call) => {
    const body = call.body as Record<string, unknown>;
    const upload_id = anId();
    started.push({ upload_id, key: "ws/a/original" });
    return {
      asset_id: (body.version_of as string | undefined) ?? anId(),
      upload_id,
      key: "ws/a/original",
      direct_url: "https://store.test/direct",
      ...extra(body),
    };
  });
  api.on(uploadsApi.complete, { status: "ok", asset_id: POSTER, size: bytes.length, sha256: sha });
  api.on(uploadsApi.abort, { status: "ok" });
  xhr.answer(() => ({ status: 200, etag: '"e1"' }));
}

const file = (name = "poster-final.jpg") => new File([bytes], name, { type: "image/jpeg" });
const only = () => {
  const [item] = uploadStore.getState().items;
  if (!item) throw new Error("nothing queued");
  return item;
};
const inits = () => api.callsTo(uploadsApi.init).map((c) => c.body as Record<string, unknown>);

beforeEach(() => {
  vi.stubGlobal("isSecureContext", true);
  started = [];
});
afterEach(() => {
  stopAllUploads();
});

describe("a new version of an asset", () => {
  it("starts with version_of (no duplicate look-up) and says 'v3 of {name}' once numbered", async () => {
    serve((body) => (body.version_of ? { version_id: anId(), version_number: 3 } : {}));
    api.on(versionsApi.list, [aVersion({ number: 3, status: "processing" })]);
    startVersionUpload(file(), { workspaceId: WORKSPACE_ID, assetId: POSTER, name: "poster.jpg" });
    expect(uploadStore.getState().dialogOpen).toBe(true);
    expect(only().versionOf).toEqual({ assetId: POSTER, name: "poster.jpg" });
    await waitFor(() => expect(only().status).toBe("processing"));
    expect(inits()).toEqual([expect.objectContaining({ version_of: POSTER, name: "poster-final.jpg" })]);
    expect(inits()[0]).not.toHaveProperty("sha256");
    expect(only()).toMatchObject({ assetId: POSTER, versionNumber: 3 });
    renderWithApp(<UploadItemRow item={only()} />);
    expect(screen.getByTestId("upload-item-detail").textContent).toContain("v3 of poster.jpg");
  });
});

describe("a new version being processed", () => {
  it("is done when its own status is, though the asset answers COMPLETED all along (its current version)", async () => {
    vi.useFakeTimers();
    try {
      serve(() => ({ version_id: "66666666-6666-4666-8666-666666666666", version_number: 2 }));
      let status: "processing" | "COMPLETED" = "processing";
      api.on(versionsApi.list, () => [
        aVersion({ id: "66666666-6666-4666-8666-666666666666", number: 2, status }),
        aVersion({ number: 1, is_current: true }),
      ]);
      startVersionUpload(file(), { workspaceId: WORKSPACE_ID, assetId: POSTER, name: "poster.jpg" });
      for (let i = 0; i < 200 && only().status !== "processing"; i++) await vi.advanceTimersByTimeAsync(0);
      expect(only().status).toBe("processing");
      await vi.advanceTimersByTimeAsync(PROCESSING_POLL_MS);
      expect(api.callsTo(versionsApi.list).length).toBeGreaterThan(0);
      expect(only().status).toBe("processing");
      status = "COMPLETED";
      await vi.advanceTimersByTimeAsync(PROCESSING_POLL_MS);
      for (let i = 0; i < 50 && only().status !== "COMPLETED"; i++) await vi.advanceTimersByTimeAsync(0);
      expect(only().status).toBe("COMPLETED");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("duplicates at upload", () => {
  it("sends the file's SHA-256 and, told it is here, waits for the choice; Keep both sends it as it is", async () => {
    serve((body) => (body.sha256 ? { duplicates: [duplicate] } : {}));
    startUploads([{ file: file(), path: null }], { workspaceId: WORKSPACE_ID, boardId: null });
    await waitFor(() => expect(only().duplicates).toEqual([duplicate]));
    expect(inits()).toEqual([expect.objectContaining({ sha256: sha })]);
    expect(xhr.requests).toHaveLength(0);

    renderWithApp(<DuplicatePrompt items={uploadStore.getState().items} />);
    const prompt = screen.getByTestId("duplicate-prompt");
    expect(within(prompt).getByTestId("duplicate-text").textContent).toBe(
      "This file is already here: poster.jpg in Launch",
    );
    within(prompt).getByRole("button", { name: "Keep both" }).click();
    await waitFor(() => expect(only().status).toBe("processing"));
    expect(only().duplicates).toBeNull();
    expect(inits()).toHaveLength(1);
    expect(xhr.requests).toHaveLength(1);
    expect(aborts()).toEqual([]);
  });

  it("Add as new version starts again as a version of the asset found", async () => {
    serve((body) =>
      body.version_of ? { version_id: anId(), version_number: 2 } : body.sha256 ? { duplicates: [duplicate] } : {},
    );
    api.on(versionsApi.list, []);
    startUploads([{ file: file(), path: null }], { workspaceId: WORKSPACE_ID, boardId: null });
    await waitFor(() => expect(only().duplicates).not.toBeNull());
    renderWithApp(<DuplicatePrompt items={uploadStore.getState().items} />);
    screen.getByRole("button", { name: "Add as new version of poster.jpg" }).click();
    await waitFor(() => expect(only().status).toBe("processing"));
    expect(inits()).toHaveLength(2);
    expect(inits()[1]).toMatchObject({ version_of: POSTER });
    expect(inits()[1]).not.toHaveProperty("sha256");
    expect(only()).toMatchObject({ versionOf: { assetId: POSTER, name: "poster.jpg" }, versionNumber: 2 });
    // Only the version's bytes were sent, and the first start's new asset was given up on the server.
    expect(xhr.requests).toHaveLength(1);
    expect(aborts()).toEqual([started[0]]);
  });

  it("Skip sends nothing, takes the file off the list and gives up the started upload on the server", async () => {
    serve(() => ({ duplicates: [duplicate] }));
    startUploads([{ file: file(), path: null }], { workspaceId: WORKSPACE_ID, boardId: null });
    await waitFor(() => expect(only().duplicates).not.toBeNull());
    renderWithApp(<DuplicatePrompt items={uploadStore.getState().items} />);
    screen.getByRole("button", { name: "Skip" }).click();
    await waitFor(() => expect(uploadStore.getState().items).toEqual([]));
    expect(xhr.requests).toHaveLength(0);
    expect(api.callsTo(uploadsApi.complete)).toHaveLength(0);
    // Its asset, made at the start, does not stay `uploading` until the daily cleanup.
    await waitFor(() => expect(aborts()).toEqual([started[0]]));
  });

  it("offers no new version of an asset in Recently deleted, and says where it is", () => {
    const gone = { ...duplicate, deleted: true };
    expect(whereIs(gone)).toBe("Recently deleted");
    expect(whereIs({ ...duplicate, boards: [] })).toBe("All assets");
    expect(whereIs({ ...duplicate, boards: ["A", "B", "C"].map((name) => ({ id: anId(), name })) })).toBe(
      "A and 2 more boards",
    );
    uploadStore.add([{ workspaceId: WORKSPACE_ID, boardId: null, file: file(), path: null }]);
    uploadStore.patch(only().id, { duplicates: [gone] });
    renderWithApp(<DuplicatePrompt items={uploadStore.getState().items} />);
    expect(screen.getByTestId("duplicate-text").textContent).toBe(
      "This file is already here: poster.jpg in Recently deleted",
    );
    expect(screen.queryByRole("button", { name: /Add as new version/ })).toBeNull();
    expect(screen.getByRole("button", { name: "Keep both" })).toBeTruthy();
  });
});

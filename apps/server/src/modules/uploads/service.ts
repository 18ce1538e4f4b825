import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { DIRECT_UPLOAD_MAX_BYTES, formatBytes, type UploadInitAnswer, type UploadInitBody } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { AppError, conflict, invalid, notFound } from "../../platform/errors.ts";
import {
  API_PART_PATH,
  type BlobStore,
  mediaDirectory,
  originalKey,
  type StoredPart,
  type UploadRef,
  uploadStagingPrefix,
} from "../../storage/blob-store.ts";
import type { Signer } from "../../storage/signer.ts";
import type { AssetLifecycle } from "../assets/index.ts";
import type { BoardsService } from "../boards/index.ts";
import { type FolderParts, folderUpload } from "./folder.ts";
import { extensionOf } from "./paths.ts";
import { UPLOAD } from "./policy.ts";
import { uploadsRepo } from "./repo.ts";
import { ABANDONED_AFTER_MS, choosePartSize, duplicatesOf, stripQuotes, UPLOAD_URL_TTL_SECONDS } from "./sizes.ts";

export { ABANDONED_AFTER_MS, choosePartSize, UPLOAD_URL_TTL_SECONDS } from "./sizes.ts";

export interface UploadDeps {
  db: Db;
  access: Access;
  store: BlobStore;
  signer: Signer;
  boards: BoardsService;
  assets: AssetLifecycle;
  maxUploadBytes: number;
  /** Queues the pipeline for an asset's version (absent: its first); called only after the row says `processing`. */
  enqueueProcessing: (assetId: string, versionId?: string) => Promise<void>;
  /**
   * The plan's limits (modules/billing), checked inside the transaction that creates or completes
   * the asset, after locking the workspace's billing row: concurrent uploads are counted in turn.
   */
  /** Refuses a part whose upload came through a file request that has since closed. */
  partGuard?: (assetId: string) => Promise<void>;
  limits?: {
    checkUpload(tx: Db, workspaceId: string, bytes: number): Promise<void>;
    checkUploadComplete(tx: Db, workspaceId: string, bytes: number): Promise<void>;
  };
}

/**
 * Who uploads: a signed-in member, or a member on whose behalf someone else sends a file (a file
 * request's maker): their right to upload into the workspace is checked as a URL issuer's is.
 */
export type Uploader = UserActor | { kind: "on-behalf"; userId: string };

export function createUploadsService(deps: UploadDeps) {
  const { db, access, store, signer } = deps;
  const mayUpload = (who: Uploader, workspaceId: string) =>
    who.kind === "user"
      ? access.require(who, UPLOAD.create, inWorkspace(workspaceId))
      : access.requireIssuer({ kind: "user", userId: who.userId }, UPLOAD.create, inWorkspace(workspaceId));

  function checkSize(size: number) {
    if (size > deps.maxUploadBytes) {
      throw new AppError(
        "PAYLOAD_TOO_LARGE",
        `The file is ${formatBytes(size)}; the limit is ${formatBytes(deps.maxUploadBytes)}.`,
      );
    }
  }

  type UploadRow = NonNullable<Awaited<ReturnType<typeof uploadsRepo.get>>>;
  const refOf = (up: UploadRow): UploadRef => ({
    id: up.id,
    key: up.key,
    size: up.size,
    partSize: up.part_size,
    partCount: up.part_count,
    kind: up.kind,
    storeUploadId: up.s3_upload_id,
  });
  const expectedSize = (up: UploadRow, n: number) => Math.min(up.size, n * up.part_size) - (n - 1) * up.part_size;

  /** The parts as the store holds them: S3 lists its own; on disk our part route recorded them. */
  async function partsOf(up: UploadRow): Promise<{ parts: StoredPart[]; sha256: Map<number, string> } | "assembled"> {
    const fromStore = await store.receivedParts(refOf(up));
    if (fromStore === "assembled") return fromStore;
    if (fromStore) return { parts: fromStore, sha256: new Map() };
    const rows = await uploadsRepo.parts(db, up.id);
    return {
      parts: rows.map((p) => ({ partNumber: p.part_number, size: p.size, etag: p.etag })),
      sha256: new Map(rows.flatMap((p) => (p.sha256 ? [[p.part_number, p.sha256] as const] : []))),
    };
  }

  /** `checked`: the parts complete() just checked, so they are not listed twice. */
  async function finish(uploadId: string, checked?: Awaited<ReturnType<typeof partsOf>>) {
    const up = await uploadsRepo.get(db, uploadId);
    if (!up) throw notFound("Upload not found.");
    if (up.completed_at) return answerFor(up.asset_id, up.version_id);
    let assembled: { size: number; sha256: string };
    try {
      const held = checked ?? (await partsOf(up));
      const parts = held === "assembled" ? [] : held.parts;
      // A one-part upload through our own route (every disk direct upload) was hashed as it arrived.
      const known = up.part_count === 1 && held !== "assembled" ? held.sha256.get(1) : undefined;
      assembled = await store.completeUpload(refOf(up), parts, { knownSha256: known || undefined });
    } catch (err) {
      // A concurrent complete may have moved the parts already: then its answer is ours too.
      if ((await uploadsRepo.get(db, uploadId))?.completed_at) return answerFor(up.asset_id, up.version_id);
      throw err;
    }
    const { size, sha256 } = assembled;
    if (size !== up.size) throw invalid(`The parts add up to ${size} bytes, not the ${up.size} announced.`);
    // The upload's completion and its asset's `processing` commit together, or neither does.
    const completed = await db.transaction().execute(async (tx) => {
      await deps.limits?.checkUploadComplete(tx, up.workspace_id, size);
      if (!(await uploadsRepo.complete(tx, uploadId))) return false;
      await deps.assets.markUploaded(up.asset_id, size, sha256, tx, up.version_id ?? up.asset_id);
      return true;
    });
    if (completed) {
      await deps.enqueueProcessing(up.asset_id, up.version_id ?? undefined);
      await store.deletePrefix(uploadStagingPrefix(uploadId));
    }
    return answerFor(up.asset_id, up.version_id);
  }

  /** The completed upload: its asset, and the size and checksum of the file it brought (a version's, for a new version). */
  async function answerFor(assetId: string, versionId: string | null = null) {
    const a = versionId
      ? await deps.assets.versionWork(versionId).then((w) => w?.row)
      : await deps.assets.byId(assetId);
    return { status: "ok" as const, asset_id: assetId, size: a?.size ?? 0, sha256: a?.sha256 ?? "" };
  }

  const duplicates = (workspaceId: string, sha256: string) => duplicatesOf(deps.assets, workspaceId, sha256);

  return {
    /** `via`: a file request's own checks and records, in the transaction that creates the asset. */
    async init(
      actor: Uploader,
      workspaceId: string,
      body: UploadInitBody,
      via?: { inTx: (tx: Db, assetId: string) => Promise<void> },
    ): Promise<UploadInitAnswer> {
      await mayUpload(actor, workspaceId);
      checkSize(body.size);
      // Versions and the duplicate look-up are a member's (a file request's visitor sends new files only).
      const versionOf = actor.kind === "user" ? (body.version_of ?? null) : null;
      const boardId = versionOf ? null : (body.board_id ?? null);
      if (boardId) await deps.boards.assertFileable(workspaceId, boardId);
      // A new asset's first version has the asset's id; a new version of an asset, an id of its own.
      // Either way the media directory is named after the version.
      const versionId = randomUUID();
      const assetId = versionOf ?? versionId;
      const directory = mediaDirectory(workspaceId, versionId);
      const key = originalKey(directory);
      const direct = body.size <= DIRECT_UPLOAD_MAX_BYTES;
      const partSize = direct ? Math.max(body.size, 1) : choosePartSize(body.size);
      const partCount = direct ? 1 : Math.ceil(body.size / partSize);
      const kind = direct ? ("direct" as const) : ("multipart" as const);
      const uploadId = randomUUID();
      // The store first (S3: CreateMultipartUpload), so the row never points at an upload that is not there.
      const { storeUploadId } = await store.beginUpload({
        id: uploadId,
        key,
        size: body.size,
        partSize,
        partCount,
        kind,
      });
      const ref: UploadRef = { id: uploadId, key, size: body.size, partSize, partCount, kind, storeUploadId };
      let versionNumber: number | undefined;
      try {
        await db.transaction().execute(async (tx) => {
          await deps.limits?.checkUpload(tx, workspaceId, body.size);
          await insertRows(tx);
          await via?.inTx(tx, assetId);
        });
      } catch (err) {
        await store.abortUpload(ref).catch(() => undefined);
        throw err;
      }
      async function insertRows(tx: Db) {
        if (versionOf) {
          const v = await deps.assets.beginVersion(tx, {
            workspaceId,
            assetId,
            versionId,
            name: body.name,
            extension: extensionOf(body.name),
            contentType: body.content_type || "application/octet-stream",
            size: body.size,
            userId: actor.userId,
            directory,
            key,
          });
          versionNumber = v.number;
        } else
          await deps.assets.create(
            {
              id: assetId,
              workspaceId,
              name: body.name,
              extension: extensionOf(body.name),
              contentType: body.content_type || "application/octet-stream",
              size: body.size,
              status: "uploading",
              boardId,
              userId: actor.userId,
              directory,
              key,
            },
            tx,
          );
        await uploadsRepo.insert(tx, {
          id: uploadId,
          asset_id: assetId,
          workspace_id: workspaceId,
          key,
          kind,
          s3_upload_id: storeUploadId,
          size: body.size,
          part_size: partSize,
          part_count: partCount,
          content_type: body.content_type || "application/octet-stream",
          created_by: actor.userId,
          version_id: versionOf ? versionId : null,
        });
      }
      const extra = {
        ...(versionOf ? { version_id: versionId, version_number: versionNumber } : {}),
        ...(actor.kind === "user" && body.sha256 ? { duplicates: await duplicates(workspaceId, body.sha256) } : {}),
      };
      const urls = await store.partUrls(ref, UPLOAD_URL_TTL_SECONDS);
      if (direct) return { asset_id: assetId, upload_id: uploadId, key, direct_url: urls[0] ?? "", ...extra };
      const parts = urls.map((url, i) => ({
        part_number: i + 1,
        start_byte: i * partSize,
        end_byte: Math.min(body.size, (i + 1) * partSize) - 1,
        url,
      }));
      return { asset_id: assetId, upload_id: uploadId, key, parts, part_size: partSize, ...extra };
    },

    /** The signed URL is the proof: no session needed, as with a presigned S3 URL. */
    async putPart(uploadId: string, partNumber: number, exp: string, sig: string, body: Readable) {
      // Only a store that takes parts through this route (disk); S3 parts go to S3's own URLs.
      if (!store.writePart) throw notFound();
      if ((await signer.verify("PUT", API_PART_PATH(uploadId, partNumber), exp, sig)) === null) {
        throw new AppError("FORBIDDEN", "The upload URL is invalid or has expired.");
      }
      const up = await uploadsRepo.get(db, uploadId);
      if (!up) throw notFound("Upload not found.");
      // The URL outlives nothing: the uploader must still be allowed to upload into the workspace.
      if (!up.created_by) throw notFound("Upload not found.");
      await access.requireIssuer({ kind: "user", userId: up.created_by }, UPLOAD.create, inWorkspace(up.workspace_id));
      if (!(await access.isLive(up.workspace_id, up.asset_id))) throw notFound("Upload not found.");
      await deps.partGuard?.(up.asset_id);
      if (up.completed_at) throw conflict("This upload is already complete.");
      if (partNumber > up.part_count) throw invalid(`This upload has ${up.part_count} parts.`);
      const expected = expectedSize(up, partNumber);
      await uploadsRepo.forgetPart(db, uploadId, partNumber);
      const put = await store.writePart(uploadStagingPrefix(uploadId), (partNumber - 1) * up.part_size, body, {
        maxBytes: expected,
        sha256: up.part_count === 1,
      });
      if (put.size !== expected) throw invalid(`Part ${partNumber} must be ${expected} bytes; ${put.size} arrived.`);
      await uploadsRepo.putPart(db, uploadId, partNumber, put.size, put.etag, put.sha256);
      // A direct upload has no complete call in the spec's client: its one PUT finishes it.
      if (up.kind === "direct") await finish(uploadId);
      return { etag: `"${put.etag}"` };
    },

    /** Checks every part and ETag; a wrong or missing one answers 422 and changes nothing. Idempotent. */
    async complete(
      actor: Uploader,
      workspaceId: string,
      body: { upload_id: string; key: string; parts: Array<{ part_number: number; etag: string }> },
    ) {
      await mayUpload(actor, workspaceId);
      const up = await uploadsRepo.get(db, body.upload_id);
      if (!up || up.workspace_id !== workspaceId || up.key !== body.key) throw notFound("Upload not found.");
      if (up.completed_at) return answerFor(up.asset_id, up.version_id);
      const held = await partsOf(up);
      // Assembled by an earlier complete that failed before it could record it: finish that one.
      if (held === "assembled") return finish(up.id);
      const stored = new Map(held.parts.map((p) => [p.partNumber, p]));
      const sent = new Map(body.parts.map((p) => [p.part_number, p.etag]));
      if (up.kind === "multipart" || sent.size > 0) {
        for (let n = 1; n <= up.part_count; n++) {
          const etag = sent.get(n);
          if (etag === undefined)
            throw invalid(`Part ${n} is missing from the list.`, [{ field: "parts", message: `Part ${n} missing` }]);
          const have = stored.get(n);
          if (!have)
            throw invalid(`Part ${n} was never uploaded.`, [{ field: "parts", message: `Part ${n} not uploaded` }]);
          if (stripQuotes(etag) !== have.etag) {
            throw invalid(`Part ${n}: the ETag does not match the uploaded bytes.`, [
              { field: "parts", message: `Part ${n} ETag mismatch` },
            ]);
          }
          if (have.size !== expectedSize(up, n)) {
            throw invalid(`Part ${n} must be ${expectedSize(up, n)} bytes; ${have.size} arrived.`, [
              { field: "parts", message: `Part ${n} size` },
            ]);
          }
        }
        if (sent.size !== up.part_count) throw invalid(`This upload has ${up.part_count} parts, not ${sent.size}.`);
      } else if (!stored.has(1)) {
        throw invalid("The file was never uploaded.", [{ field: "parts", message: "Not uploaded" }]);
      }
      return finish(up.id, held);
    },

    /**
     * The uploader gives up an upload before it completed (the web's Skip at a duplicate, Cancel, a
     * failed send): its asset, or for a new version that version, goes now with the bytes sent so
     * far, instead of waiting `uploading` for the daily cleanup (a new version waiting would keep
     * telling the asset's viewers that a newer one is on its way). Only the member who started it;
     * 409 once it completed (the file is then an asset or a version like any other).
     */
    async abort(actor: UserActor, workspaceId: string, body: { upload_id: string; key: string }) {
      await mayUpload(actor, workspaceId);
      const up = await db.transaction().execute(async (tx) => {
        // Locked: a complete racing this one either finished first (409 here) or finds no upload.
        const row = await uploadsRepo.lock(tx, body.upload_id);
        if (!row || row.workspace_id !== workspaceId || row.key !== body.key || row.created_by !== actor.userId)
          throw notFound("Upload not found.");
        if (row.completed_at) throw conflict("This upload is already complete.");
        if (row.version_id) await deps.assets.deleteUploadingVersion(tx, row.asset_id, row.version_id);
        else await deps.assets.deleteUploading(row.asset_id, tx);
        await uploadsRepo.delete(tx, row.id);
        return row;
      });
      await store.abortUpload(refOf(up)).catch(() => undefined);
      await store.deletePrefix(uploadStagingPrefix(up.id));
      await store.deletePrefix(`media/${mediaDirectory(workspaceId, up.version_id ?? up.asset_id)}`);
      return { status: "ok" as const };
    },

    /** Folder upload (folder.ts): files stream to disk, then the board tree is built from their paths. */
    folder: (actor: UserActor, workspaceId: string, parts: FolderParts) =>
      folderUpload(deps, actor, workspaceId, parts),

    /**
     * S3 direct uploads whose client never called complete (the spec's client treats its one PUT as
     * the whole upload; on disk that PUT reaches us and finishes it): the object is there with the
     * announced size, so finish it. Run every minute on S3; answers how many it finished.
     */
    async completeArrivedDirect(now = Date.now()): Promise<number> {
      if (store.kind === "disk") return 0;
      const pending = await uploadsRepo.pendingDirect(db, new Date(now - ABANDONED_AFTER_MS), new Date(now - 15_000));
      let finished = 0;
      for (const { id } of pending) {
        const up = await uploadsRepo.get(db, id);
        if (!up || up.completed_at) continue;
        const held = await partsOf(up);
        if (held !== "assembled" && held.parts[0]?.size !== up.size) continue;
        await finish(id, held);
        finished++;
      }
      return finished;
    },

    /** Rows and bytes of uploads never completed within 24 h. */
    async cleanupAbandoned(now = Date.now()): Promise<number> {
      const stale = await uploadsRepo.abandoned(db, new Date(now - ABANDONED_AFTER_MS));
      for (const s of stale) {
        await store.abortUpload({
          id: s.id,
          key: s.key,
          size: s.size,
          partSize: s.part_size,
          partCount: s.part_count,
          kind: s.kind,
          storeUploadId: s.s3_upload_id,
        });
        await store.deletePrefix(uploadStagingPrefix(s.id));
        if (s.directory) await store.deletePrefix(`media/${s.directory}`);
        if (s.version_id) await deps.assets.deleteUploadingVersion(db, s.asset_id, s.version_id);
        else await deps.assets.deleteUploading(s.asset_id);
      }
      return stale.length;
    },
  };
}
export type UploadsService = ReturnType<typeof createUploadsService>;

import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import {
  DOWNLOAD_ERRORS,
  DOWNLOAD_PART_SIZE,
  type DownloadAnswer,
  type DownloadBody,
  type DownloadPart,
  MAX_PARTS,
  RIGHTS_MESSAGES,
} from "@hangar/contract";
import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace, issuerOf } from "../../platform/access.ts";
import type { UserActor, VisitorActor } from "../../platform/actor.ts";
import { contentDisposition } from "../../platform/content-disposition.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import { originalKey } from "../../storage/blob-store.ts";
import type { Signer } from "../../storage/signer.ts";
import type { AuditRecord } from "../audit/index.ts";
import { DOWNLOAD } from "./policy.ts";
import { type DownloadableAsset, downloadsRepo } from "./repo.ts";
import { decodeZipSpec, encodeZipSpec, type ZipSpec } from "./spec.ts";
import { fileNameOf, planZip, sanitizeSegment, type ZipEntry, zipStream } from "./zip.ts";

/**
 * The zip URL: `${ZIP_PATH}?spec=…&exp=…&sig=…`. The spec rides in the query (a path parameter is
 * capped at 100 characters by the router); the signature is made over `${ZIP_PATH}/${spec}`, so it
 * covers the spec exactly. Nothing secret is in it (DESIGN §7): ids, flags, and who asked.
 */
export const ZIP_PATH = "/api/v1/downloads/zip";
const signedPath = (spec: string) => `${ZIP_PATH}/${spec}`;
/** A direct URL is fetched at once; parts are fetched one after another, so they live longer. */
const DIRECT_TTL_SECONDS = 3600;
const PARTS_TTL_SECONDS = 6 * 3600;
/** The browser starts the zip download as soon as it has the answer (spec 01 §4). */
const ZIP_TTL_SECONDS = 15 * 60;
/** A direct S3 URL is never re-checked by us, so it outlives a member's access by minutes at most. */
export const PRESIGNED_TTL_SECONDS = 10 * 60;

type Shape = "single" | "board" | "unified";

/** Which of spec 01 §7's three shapes a body is, from the keys it sends (see DownloadBody). */
export function shapeOf(body: DownloadBody): Shape {
  const { asset_ids: assets, board_ids: boards } = body;
  if (boards === undefined) {
    if (assets === undefined)
      return body.use_multipart !== undefined || body.part_size !== undefined ? "single" : "unified";
    if (assets.length <= 1) return "single";
  }
  if (assets === undefined && boards !== undefined) return "board";
  return "unified";
}

/** The zip's note on what was left out because its usage rights expired. */
const rightsNote = (assets: DownloadableAsset[]): ZipEntry => ({
  kind: "note",
  name: RIGHTS_MESSAGES.zipNoteName,
  text: [
    "Left out of this download: the usage rights of these assets expired (only ADMINs can download them).",
    "",
    ...assets.map((a) => RIGHTS_MESSAGES.downloadRefused(fileNameOf(a), a.rights_expire_at!.toISOString())),
    "",
  ].join("\n"),
});

const today = () => new Date().toISOString().slice(0, 10);

export function createDownloadsService(deps: {
  db: Db;
  access: Access;
  signer: Signer;
  store: BlobStore;
  log: Logger;
  /** Downloads of boards and selections are recorded in the audit log (issue 36). */
  audit: (r: AuditRecord) => Promise<void>;
  /** The time usage rights' expiry is compared with (tests move it). */
  clock?: { now(): Date };
  /** The smart boards among these (issue 33) and the ids of what matches each now (null: a visitor). */
  smartAssets?: (workspaceId: string, boardIds: string[], userId: string | null) => Promise<Map<string, string[]>>;
  /** A watermarking link that stamps downloads: each original's stamped copy (issue 33, modules/watermarks). */
  stamp?: (q: {
    linkId: string;
    hash: string;
    visitor: string;
    directory: string;
    file: "original";
    mime: string;
  }) => Promise<{ key: string } | { bytes: Buffer }>;
}) {
  const { db, access, signer, store } = deps;
  /** Usage rights expired (issue 33): only ADMINs download such an asset; visitors never see it. */
  const expired = (a: DownloadableAsset) =>
    a.rights_expire_at !== null && a.rights_expire_at.getTime() <= (deps.clock?.now() ?? new Date()).getTime();
  const refuse = (a: DownloadableAsset) => {
    throw new AppError("RIGHTS_EXPIRED", RIGHTS_MESSAGES.downloadRefused(a.name, a.rights_expire_at!.toISOString()));
  };

  async function single(
    issuer: string,
    workspaceId: string,
    assetId: string,
    body: DownloadBody,
    admin: boolean,
  ): Promise<DownloadAnswer> {
    // The current version (the asset's row), or the version asked for (issue 29).
    const [asset] = body.version_id
      ? [await downloadsRepo.downloadableVersion(db, workspaceId, assetId, body.version_id)]
      : await downloadsRepo.downloadableAssets(db, workspaceId, [assetId]);
    const stat = asset ? await store.stat(originalKey(asset.directory)) : null;
    if (!asset || !stat) throw notFound("Asset not found.");
    if (!admin && expired(asset)) refuse(asset);
    const facts = { filename: fileNameOf(asset), size: stat.size, mime_type: asset.mime_type };
    // A store with its own URLs (S3) serves the bytes itself, named and typed for the download;
    // otherwise the media route serves the original with Range support and accepts this signature.
    const path = `/media/${asset.directory}/original`;
    // Our own URL names its issuer and is re-checked by the media route on every fetch; a store's
    // presigned URL cannot be, so it lives only minutes.
    const urlFor = async (ttlSeconds: number) =>
      (await store.presignGet(originalKey(asset.directory), {
        ttlSeconds: Math.min(ttlSeconds, PRESIGNED_TTL_SECONDS),
        contentDisposition: contentDisposition("attachment", facts.filename),
        contentType: asset.mime_type || "application/octet-stream",
      })) ?? (await signer.sign("GET", path, ttlSeconds, issuer));
    if (!body.use_multipart || stat.size === 0) {
      return { direct_url: await urlFor(DIRECT_TTL_SECONDS), ...facts };
    }
    // Never more than MAX_PARTS parts: a tiny part_size on a huge file grows to fit.
    const partSize = Math.max(body.part_size ?? DOWNLOAD_PART_SIZE, Math.ceil(stat.size / MAX_PARTS));
    const url = await urlFor(PARTS_TTL_SECONDS);
    const parts: DownloadPart[] = [];
    for (let start = 0, n = 1; start < stat.size; start += partSize, n++) {
      parts.push({ part_number: n, start_byte: start, end_byte: Math.min(start + partSize, stat.size) - 1, url });
    }
    return { parts, part_size: partSize, ...facts };
  }

  async function requireAll(workspaceId: string, spec: Pick<ZipSpec, "assetIds" | "boardIds">) {
    const [assets, boards] = await Promise.all([
      downloadsRepo.downloadableAssets(db, workspaceId, spec.assetIds),
      downloadsRepo.liveBoards(db, workspaceId, spec.boardIds),
    ]);
    if (boards.length !== spec.boardIds.length) throw notFound("Board not found.");
    if (assets.length !== spec.assetIds.length) throw notFound("Asset not found.");
    return { assets, boards };
  }

  async function zipName(spec: ZipSpec): Promise<string> {
    if (!spec.boardAtRoot) return `download-${today()}.zip`;
    const [board] = await downloadsRepo.liveBoards(db, spec.workspaceId, spec.boardIds);
    return board ? `${sanitizeSegment(board.name)}.zip` : `download-${today()}.zip`;
  }

  /** A zip asked for: one row per board in it (a board's own history shows it), or one for a selection. */
  async function recordZip(spec: ZipSpec, boards: Array<{ id: string; name: string }>, filename: string) {
    if (boards.length === 0 && spec.assetIds.length > 0)
      await deps.audit({
        workspaceId: spec.workspaceId,
        action: "download.zip_requested",
        object: { type: "download", id: null, name: filename },
        changes: { asset_count: spec.assetIds.length },
      });
    for (const b of boards)
      await deps.audit({
        workspaceId: spec.workspaceId,
        action: "board.downloaded",
        object: { type: "board", id: b.id, name: b.name },
        changes: { include_subboards: spec.includeSubboards, asset_count: spec.assetIds.length },
      });
  }

  return {
    /** POST /workspaces/{id}/download: any member may download (COMMENTER too). */
    async request(actor: UserActor, workspaceId: string, body: DownloadBody): Promise<DownloadAnswer> {
      const grant = await access.require(actor, DOWNLOAD.request, inWorkspace(workspaceId));
      const admin = grant.kind === "member" && grant.role === "ADMIN";
      const shape = shapeOf(body);
      const assetIds = [...new Set(body.asset_ids ?? [])];
      const boardIds = [...new Set(body.board_ids ?? [])];
      if (body.version_id && shape !== "single")
        throw invalid("A version is downloaded on its own: send one asset id with version_id.", [
          { field: "version_id", message: "Only with one asset" },
        ]);
      if (shape === "single") {
        if (!assetIds[0]) throw invalid(DOWNLOAD_ERRORS.noAsset, [{ field: "asset_ids", message: "Required" }]);
        const answer = await single(issuerOf(actor), workspaceId, assetIds[0], body, admin);
        await deps.audit({
          workspaceId,
          action: "asset.downloaded",
          object: { type: "asset", id: assetIds[0], name: answer.filename },
          changes: body.version_id ? { version_id: body.version_id } : null,
        });
        return answer;
      }
      if (shape === "board" && boardIds.length === 0)
        throw invalid(DOWNLOAD_ERRORS.noBoard, [{ field: "board_ids", message: "Required" }]);
      if (assetIds.length === 0 && boardIds.length === 0)
        throw invalid(DOWNLOAD_ERRORS.nothing, [{ field: "asset_ids", message: "Required" }]);
      const spec: ZipSpec = {
        workspaceId,
        userId: actor.userId,
        assetIds,
        boardIds,
        includeSubboards: body.include_subboards ?? true,
        flatten: body.flatten_structure ?? false,
        // One board asked for as a board: its own assets at the zip's root, named after it.
        boardAtRoot: shape === "board" && boardIds.length === 1,
      };
      const { assets, boards } = await requireAll(workspaceId, spec);
      // Assets chosen one by one are refused by name; a board's are left out when fetched (a note says which).
      const gone = admin ? undefined : assets.find(expired);
      if (gone) refuse(gone);
      const filename = await zipName(spec);
      await recordZip(spec, boards, filename);
      const encoded = encodeZipSpec(spec);
      const signed = await signer.sign("GET", signedPath(encoded), ZIP_TTL_SECONDS);
      const download_url = `${ZIP_PATH}?spec=${encoded}&${signed.slice(signedPath(encoded).length + 1)}`;
      return { download_url, filename };
    },

    /**
     * A share-link visitor's zip of a board inside the shared subtree (issue 17), only while the link
     * allows downloads. The URL names the link and its password version; its fetch checks them again.
     */
    async requestForVisitor(
      visitor: VisitorActor,
      boardId: string,
    ): Promise<{ download_url: string; filename: string }> {
      const workspaceId = visitor.workspaceId;
      await access.require(visitor, DOWNLOAD.request, { kind: "board", workspaceId, boardId });
      const spec: ZipSpec = {
        workspaceId,
        userId: visitor.linkId,
        link: { version: visitor.passwordVersion ?? 0 },
        assetIds: [],
        boardIds: [boardId],
        includeSubboards: true,
        flatten: false,
        boardAtRoot: true,
      };
      const { boards } = await requireAll(workspaceId, spec);
      const filename = await zipName(spec);
      await recordZip(spec, boards, filename);
      const encoded = encodeZipSpec(spec);
      const signed = await signer.sign("GET", signedPath(encoded), ZIP_TTL_SECONDS);
      const download_url = `${ZIP_PATH}?spec=${encoded}&${signed.slice(signedPath(encoded).length + 1)}`;
      return { download_url, filename };
    },

    /**
     * GET of a signed zip URL. The signature proves the spec; membership is checked again, so a
     * member removed since the URL was issued (or whose workspace is deleted) gets 404, through the
     * same access check as any request. Assets deleted since are left out; when nothing asked for is
     * left, the URL answers 404.
     */
    async zip(encoded: string, exp: unknown, sig: unknown): Promise<{ filename: string; stream: Readable }> {
      const valid = (await signer.verify("GET", signedPath(encoded), exp, sig)) !== null;
      const spec = valid ? decodeZipSpec(encoded) : null;
      if (!spec) throw notFound();
      let admin = false;
      let marking: VisitorActor["watermark"];
      if (spec.link) {
        // Through a share link: still active, on the same password, allowing downloads, every board inside it.
        const issuer = { kind: "link", linkId: spec.userId, version: spec.link.version } as const;
        for (const boardId of spec.boardIds) {
          const grant = await access.requireIssuer(issuer, DOWNLOAD.request, {
            kind: "board",
            workspaceId: spec.workspaceId,
            boardId,
          });
          if (grant.kind === "visitor") marking = grant.visitor.watermark;
        }
        if (spec.assetIds.length) throw notFound();
      } else {
        const grant = await access.requireIssuer(
          { kind: "user", userId: spec.userId },
          DOWNLOAD.request,
          inWorkspace(spec.workspaceId),
        );
        admin = grant.kind === "member" && grant.role === "ADMIN";
      }
      const ws = spec.workspaceId;
      const [allRoot, nodes] = await Promise.all([
        downloadsRepo.downloadableAssets(db, ws, spec.assetIds),
        downloadsRepo.boardNodes(db, ws, spec.boardIds, spec.includeSubboards),
      ]);
      // Usage rights expired since (issue 33): left out for all but ADMINs, named in a note for members.
      const leftOut = new Map<string, DownloadableAsset>();
      const keep = (a: DownloadableAsset) => {
        if (admin || !expired(a)) return true;
        leftOut.set(a.id, a);
        return false;
      };
      const rootAssets = allRoot.filter(keep);
      if (allRoot.length > 0 && rootAssets.length === 0 && nodes.length === 0) refuse(allRoot[0]!);
      if (rootAssets.length === 0 && nodes.length === 0) throw notFound();
      const byBoard = new Map<string, DownloadableAsset[]>();
      const nodeIds = [...new Set(nodes.map((n) => n.id))];
      for (const row of await downloadsRepo.boardAssets(db, ws, nodeIds)) {
        const { board_id, ...asset } = row;
        if (!keep(asset)) continue;
        const list = byBoard.get(board_id);
        if (list) list.push(asset);
        else byBoard.set(board_id, [asset]);
      }
      // A smart board holds no filed assets: its folder is what matches its filter at this moment.
      const smart =
        (await deps.smartAssets?.(ws, nodeIds, spec.link ? null : spec.userId)) ?? new Map<string, string[]>();
      for (const [boardId, ids] of smart) {
        const found = (await downloadsRepo.downloadableAssets(db, ws, ids)).filter(keep);
        const order = new Map(ids.map((id, i) => [id, i]));
        byBoard.set(
          boardId,
          found.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)),
        );
      }
      // Root assets in the order asked for; board assets come sorted by name from the query.
      const order = new Map(spec.assetIds.map((id, i) => [id, i]));
      rootAssets.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
      const entries = planZip({
        rootAssets,
        nodes,
        assetsOf: (id) => byBoard.get(id) ?? [],
        boardAtRoot: spec.boardAtRoot,
        flatten: spec.flatten,
      });
      if (leftOut.size > 0 && !spec.link) entries.push(rightsNote([...leftOut.values()]));
      const stream = zipStream(
        entries,
        async (asset) => {
          const key = originalKey(asset.directory);
          if (!(await store.stat(key))) return null;
          // A link stamping downloads: images and PDFs stamped, other files as they are.
          if (marking?.downloads && deps.stamp) {
            const served = await deps.stamp({
              linkId: spec.userId,
              hash: marking.hash,
              visitor: "",
              directory: asset.directory,
              file: "original",
              mime: asset.mime_type,
            });
            if ("bytes" in served) return Readable.from(served.bytes);
            if (served.key !== key) return store.read(served.key);
          }
          // On disk, 1 MiB reads instead of the default 64 KiB: a sixteenth of the chunks through
          // the CRC and the socket, which is most of the cost of a stored (uncompressed) entry.
          const local = store.localPath(key);
          return local ? createReadStream(local, { highWaterMark: 1 << 20 }) : store.read(key);
        },
        (err) => deps.log.warn({ err: { message: err.message }, workspaceId: ws }, "zip download failed"),
      );
      return { filename: await zipName(spec), stream };
    },
  };
}
export type DownloadsService = ReturnType<typeof createDownloadsService>;

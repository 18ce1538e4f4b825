import { randomUUID } from "node:crypto";
import { type Asset, type AssetVersion, VERSION_MESSAGES } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type Access, allows } from "../../platform/access.ts";
import { linkBoard, type UserActor, type VisitorActor } from "../../platform/actor.ts";
import { conflict, forbidden, invalid, notFound } from "../../platform/errors.ts";
import type { Signer } from "../../storage/signer.ts";
import { ASSET } from "./policy.ts";
import { assetsRepo } from "./repo.ts";
import { viewerOf } from "./serialize.ts";
import { versionMovesRepo } from "./versions-moves-repo.ts";
import { versionsRepo } from "./versions-repo.ts";
import { serializeVersion } from "./versions-serialize.ts";

/** How comments follow their versions to another asset (the comments feature owns their rows). */
export type CommentsFollow = (
  tx: Db,
  toAssetId: string,
  from: { assetIds: string[] } | { versionId: string },
) => Promise<void>;

/**
 * The versions API (issue 29; contract: versions.ts). Every change runs in one transaction with the
 * asset row locked, so two changes of one asset's versions happen one after the other, and the
 * asset's copy of its current version (versionsRepo.promote) never disagrees with its versions.
 */
export function createVersionsService(deps: {
  db: Db;
  access: Access;
  signer: Signer;
  /** The asset's answer for the caller, after a change. */
  getAsset: (actor: UserActor, workspaceId: string, assetId: string) => Promise<Asset>;
  commentsFollow: CommentsFollow;
}) {
  const { db, access, signer } = deps;
  const mayChange = (actor: UserActor, workspaceId: string, assetId: string) =>
    access.require(actor, ASSET.version, { kind: "asset", workspaceId, assetId });

  /** The live asset (locked) and its live version `versionId`; 404 for either missing. */
  async function lockVersion(tx: Db, workspaceId: string, assetId: string, versionId: string) {
    const asset = await versionsRepo.lockAsset(tx, workspaceId, assetId);
    if (!asset) throw notFound("Asset not found.");
    const version = await versionsRepo.get(tx, versionId);
    if (!version || version.asset_id !== assetId || version.deleted_at) throw notFound(VERSION_MESSAGES.notFound);
    return { asset, version };
  }

  /** The version to make current instead of `leaving`: the newest COMPLETED one, else the newest failed one. */
  async function successor(tx: Db, assetId: string, leaving: string): Promise<string> {
    const next =
      (await versionMovesRepo.newest(tx, assetId, ["COMPLETED"], leaving)) ??
      (await versionMovesRepo.newest(tx, assetId, ["error"], leaving));
    if (!next) throw conflict(VERSION_MESSAGES.noneToPromote);
    return next;
  }

  return {
    /**
     * Every live version, newest first. A share link's visitor (the link showing versions) gets the
     * media signed for the link, the comment counts of the link's board (none unless it shows
     * comments), and no member's name or other asset (uploader, who made it current, duplicates).
     */
    async list(actor: UserActor | VisitorActor, workspaceId: string, assetId: string): Promise<AssetVersion[]> {
      const grant = await access.require(actor, ASSET.view, { kind: "asset", workspaceId, assetId });
      if (!allows(grant, ASSET.versions)) throw forbidden(VERSION_MESSAGES.linkCurrentOnly);
      if (!(await assetsRepo.liveIds(db, workspaceId, [assetId])).length) throw notFound("Asset not found.");
      const viewer = viewerOf(actor, grant);
      const visitor = actor.kind === "visitor" ? actor : null;
      const rows = await versionsRepo.listed(db, assetId, visitor ? linkBoard(visitor) : undefined);
      const list = await Promise.all(rows.map((r) => serializeVersion(r, signer, viewer)));
      if (!visitor) return list;
      const comments = visitor.flags.show_comments;
      return list.map((v) => ({
        ...v,
        comment_count: comments ? v.comment_count : 0,
        open_comment_count: comments ? v.open_comment_count : 0,
        uploaded_by: null,
        made_current_by: null,
        duplicate_of: null,
      }));
    },

    /** Makes a COMPLETED version current again, recorded with who and when. */
    async makeCurrent(actor: UserActor, workspaceId: string, assetId: string, versionId: string): Promise<Asset> {
      await mayChange(actor, workspaceId, assetId);
      await db.transaction().execute(async (tx) => {
        const { asset, version } = await lockVersion(tx, workspaceId, assetId, versionId);
        if (version.status !== "COMPLETED") throw conflict(VERSION_MESSAGES.notFinished);
        if (asset.current_id === versionId) return;
        await versionsRepo.keepAiTags(tx, assetId, asset.current_id);
        await versionsRepo.promote(tx, assetId, versionId, actor.userId);
        await versionsRepo.refresh(tx, assetId);
      });
      return deps.getAsset(actor, workspaceId, assetId);
    },

    /** To Recently deleted; never the only version; the current one hands over to the newest remaining. */
    async remove(actor: UserActor, workspaceId: string, assetId: string, versionId: string): Promise<Asset> {
      await mayChange(actor, workspaceId, assetId);
      await db.transaction().execute(async (tx) => {
        const { asset } = await lockVersion(tx, workspaceId, assetId, versionId);
        if ((await versionsRepo.live(tx, assetId)).length <= 1) throw conflict(VERSION_MESSAGES.lastVersion);
        if (asset.current_id === versionId) {
          const next = await successor(tx, assetId, versionId);
          await versionsRepo.keepAiTags(tx, assetId, versionId);
          await versionsRepo.promote(tx, assetId, next, null);
        }
        await versionsRepo.softDelete(tx, versionId, actor.userId, randomUUID());
        await versionsRepo.refresh(tx, assetId);
      });
      return deps.getAsset(actor, workspaceId, assetId);
    },

    /**
     * Other assets become versions of this one: every version numbered again by upload time, the
     * newest COMPLETED one current; their comments follow; the stacked assets are gone.
     */
    async stack(actor: UserActor, workspaceId: string, assetId: string, assetIds: string[]): Promise<Asset> {
      await mayChange(actor, workspaceId, assetId);
      const others = [...new Set(assetIds)];
      if (others.includes(assetId))
        throw invalid(VERSION_MESSAGES.stackSelf, [{ field: "asset_ids", message: VERSION_MESSAGES.stackSelf }]);
      await db.transaction().execute(async (tx) => {
        // Locked in one order whoever stacks what, so two stacks never wait on each other in a circle.
        const names = new Map<string, string>();
        for (const id of [assetId, ...others].sort()) {
          const a = await versionsRepo.lockAsset(tx, workspaceId, id);
          if (!a) throw notFound("Asset not found.");
          names.set(id, a.name);
        }
        const [busy] = await versionMovesRepo.busy(tx, others);
        if (busy) throw conflict(VERSION_MESSAGES.busy(names.get(busy) ?? ""));
        await versionMovesRepo.keepCurrentAiTags(tx, [assetId, ...others]);
        await versionMovesRepo.stack(tx, assetId, others);
        await deps.commentsFollow(tx, assetId, { assetIds: others });
        await versionMovesRepo.stackedGone(tx, workspaceId, others);
        const current =
          (await versionMovesRepo.newest(tx, assetId, ["COMPLETED"])) ??
          (await versionMovesRepo.newest(tx, assetId, ["error", "processing"]));
        if (current) await versionsRepo.promote(tx, assetId, current, null);
        await versionsRepo.refresh(tx, assetId);
      });
      return deps.getAsset(actor, workspaceId, assetId);
    },

    /** A version becomes an asset of its own (with its comments), filed where this asset is; answers the new asset. */
    async detach(actor: UserActor, workspaceId: string, assetId: string, versionId: string): Promise<Asset> {
      await mayChange(actor, workspaceId, assetId);
      const newId = await db.transaction().execute(async (tx) => {
        const { asset, version } = await lockVersion(tx, workspaceId, assetId, versionId);
        if ((await versionsRepo.live(tx, assetId)).length <= 1) throw conflict(VERSION_MESSAGES.detachOnly);
        if (version.status === "uploading" || version.status === "processing")
          throw conflict(VERSION_MESSAGES.notFinished);
        if (asset.current_id === versionId) {
          const next = await successor(tx, assetId, versionId);
          await versionsRepo.keepAiTags(tx, assetId, versionId);
          await versionsRepo.promote(tx, assetId, next, null);
        }
        // The version's own id when free: a stacked asset detached again gets its id (and links) back.
        const id = (await versionMovesRepo.assetExists(tx, versionId)) ? randomUUID() : versionId;
        await versionMovesRepo.detach(tx, versionId, assetId, id, actor.userId);
        await deps.commentsFollow(tx, id, { versionId });
        await versionsRepo.promote(tx, id, versionId, null);
        await versionsRepo.refresh(tx, assetId);
        await versionsRepo.refresh(tx, id);
        return id;
      });
      return deps.getAsset(actor, workspaceId, newId);
    },
  };
}
export type VersionsService = ReturnType<typeof createVersionsService>;

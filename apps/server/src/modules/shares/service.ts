import {
  BOARD_REQUIRED,
  DEFAULT_SHARE_FLAGS,
  type ShareActivity,
  type ShareLink,
  type ShareLinkSummary,
  type ShareLinkWithActivity,
  type UpdateShareLinkBody,
} from "@hangar/contract";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { Actor } from "../../platform/actor.ts";
import { invalid, notFound } from "../../platform/errors.ts";
import { ASSET } from "../assets/index.ts";
import { BOARD } from "../boards/index.ts";
import { gateChanges, gateView, linkPage, newLinkToken } from "../public-links/index.ts";
import { watermarkHash } from "../watermarks/index.ts";
import { SHARE } from "./policy.ts";
import { type ShareLinkRow, sharesRepo } from "./repo.ts";
import { SHARE_LINKS } from "./visitor.ts";

type Target = { type: "asset" | "board"; objectId: string; boardId: string | undefined };

export const toShareLink = (r: ShareLinkRow): ShareLink => ({
  id: r.id,
  token: r.token,
  path: linkPage(SHARE_LINKS, r.token),
  content_type: r.content_type,
  object_id: r.object_id,
  board_id: r.board_id,
  allow_commenting: r.allow_commenting,
  show_comments: r.show_comments,
  show_custom_fields: r.show_custom_fields,
  allow_editing_custom_fields: r.allow_editing_custom_fields,
  allow_downloads: r.allow_downloads,
  show_versions: r.show_versions,
  ...gateView(r),
  watermark: r.watermark ?? null,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

type ActivityRow = Awaited<ReturnType<typeof sharesRepo.activity>>[number];
const activityOf = (rows: ActivityRow[], linkId: string): ShareActivity[] =>
  rows
    .filter((a) => a.link_id === linkId)
    .map((a) => ({ kind: a.kind, count: Number(a.count), last_at: a.last_at.toISOString() }));

/**
 * Managing share links (spec 02 §7 Share links): ADMIN and EDITOR get-or-create, update and delete
 * the link of an asset in a board, or of a board; COMMENTER gets 403, an outsider 404. The public
 * side is public-service.ts, its visitors let through by the public links' gate (visitor.ts).
 */
export function createSharesService(deps: {
  db: Db;
  access: Access;
  /** A link's watermark changed or went: its old renditions are purged in the background (issue 33). */
  onWatermarkChange?: (linkId: string) => void;
}) {
  const { db, access } = deps;

  /** Checks the caller may share the content and that it is there; answers the link's board context. */
  async function check(
    actor: Actor,
    workspaceId: string,
    t: Target,
  ): Promise<{ userId: string; boardId: string | null }> {
    if (t.type === "asset") {
      if (!t.boardId) throw invalid(BOARD_REQUIRED, [{ field: "board_id", message: BOARD_REQUIRED }]);
      const grant = await access.require(actor, ASSET.share, { kind: "asset", workspaceId, assetId: t.objectId });
      if (!(await sharesRepo.assetInBoard(db, workspaceId, t.objectId, t.boardId)))
        throw notFound("Asset not found in that board.");
      return { userId: grant.kind === "member" ? grant.userId : "", boardId: t.boardId };
    }
    const grant = await access.require(actor, BOARD.share, { kind: "board", workspaceId, boardId: t.objectId });
    if (!(await sharesRepo.liveBoard(db, workspaceId, t.objectId))) throw notFound("Board not found.");
    return { userId: grant.kind === "member" ? grant.userId : "", boardId: null };
  }

  async function getOrCreate(actor: Actor, workspaceId: string, t: Target) {
    const { userId, boardId } = await check(actor, workspaceId, t);
    const found = await sharesRepo.find(db, workspaceId, t.type, t.objectId, boardId);
    if (found) return found;
    return sharesRepo.create(
      db,
      {
        workspace_id: workspaceId,
        content_type: t.type,
        object_id: t.objectId,
        board_id: boardId,
        token: newLinkToken(),
        created_by: userId,
      },
      DEFAULT_SHARE_FLAGS,
    );
  }

  async function withActivity(row: ShareLinkRow): Promise<ShareLinkWithActivity> {
    return { ...toShareLink(row), activity: activityOf(await sharesRepo.activity(db, [row.id]), row.id) };
  }

  return {
    /** One link by its id, as its GET answers it (ADMIN, as the review of all links is): webhooks' share events. */
    async byId(actor: Actor, workspaceId: string, linkId: string): Promise<ShareLinkWithActivity> {
      await access.require(actor, SHARE.review, inWorkspace(workspaceId));
      const row = await sharesRepo.byId(db, workspaceId, linkId);
      if (!row) throw notFound("Share link not found.");
      return withActivity(row);
    },
    async get(actor: Actor, workspaceId: string, t: Target): Promise<ShareLinkWithActivity> {
      return withActivity(await getOrCreate(actor, workspaceId, t));
    },
    /** Counts a download through a link (never in the way of the download itself). */
    countDownload(linkId: string): void {
      sharesRepo.bump(db, linkId, "download").catch(() => undefined);
    },
    /** Every link of the workspace, to review or revoke (ADMIN). */
    async listAll(actor: Actor, workspaceId: string): Promise<ShareLinkSummary[]> {
      await access.require(actor, SHARE.review, inWorkspace(workspaceId));
      const rows = await sharesRepo.listAll(db, workspaceId);
      const activity = await sharesRepo.activity(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((r) => ({
        ...toShareLink(r),
        activity: activityOf(activity, r.id),
        content_name: r.content_name ?? "(deleted)",
        board_name: r.board_name,
        created_by_name: r.created_by_name,
      }));
    },
    async update(
      actor: Actor,
      workspaceId: string,
      t: Target,
      body: z.output<typeof UpdateShareLinkBody>,
    ): Promise<ShareLinkWithActivity> {
      const link = await getOrCreate(actor, workspaceId, t);
      const next = {
        allow_commenting: body.allow_commenting ?? link.allow_commenting,
        show_comments: body.show_comments ?? link.show_comments,
        show_custom_fields: body.show_custom_fields ?? link.show_custom_fields,
        allow_editing_custom_fields: body.allow_editing_custom_fields ?? link.allow_editing_custom_fields,
        allow_downloads: body.allow_downloads ?? link.allow_downloads,
        show_versions: body.show_versions ?? link.show_versions,
        is_active: body.is_active ?? link.is_active,
      };
      // Spec 02 §5: editing fields needs them shown.
      if (next.allow_editing_custom_fields && !next.show_custom_fields)
        throw invalid("Editing custom fields needs them shown", [
          { field: "allow_editing_custom_fields", message: "Turn on show_custom_fields first" },
        ]);
      const patch: Parameters<typeof sharesRepo.update>[2] = { ...next, ...(await gateChanges(body)) };
      // The hash names every watermarked URL and copy: new settings, new URLs, and the old ones refused.
      const marking = body.watermark === undefined ? undefined : body.watermark;
      if (marking !== undefined) {
        patch.watermark = marking;
        patch.watermark_hash = marking ? watermarkHash(marking) : null;
      }
      const updated = await sharesRepo.update(db, link.id, patch);
      if (marking !== undefined && link.watermark_hash !== updated.watermark_hash) deps.onWatermarkChange?.(link.id);
      return withActivity(updated);
    },
    async remove(actor: Actor, workspaceId: string, t: Target) {
      const { boardId } = await check(actor, workspaceId, t);
      const link = await sharesRepo.find(db, workspaceId, t.type, t.objectId, boardId);
      if (!link) throw notFound("This content has no share link.");
      await sharesRepo.remove(db, link.id);
      if (link.watermark_hash) deps.onWatermarkChange?.(link.id);
      return { status: "ok" as const };
    },
  };
}
export type SharesService = ReturnType<typeof createSharesService>;

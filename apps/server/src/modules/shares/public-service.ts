import type {
  Asset,
  AssetListAnswer,
  AssetVersion,
  Comment,
  CommentPage,
  SharedBoard,
  SharedCommentBody,
  SharedFieldValueBody,
  SharedPayload,
  WatermarkedVideo,
} from "@hangar/contract";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { notFound } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import type { AiActionsService } from "../ai-actions/index.ts";
import type { AssetsService, VersionsService } from "../assets/index.ts";
import type { CommentsService } from "../comments/index.ts";
import type { DownloadsService } from "../downloads/index.ts";
import type { FieldsService } from "../fields/index.ts";
import type { ListingService } from "../listing/index.ts";
import type { Watermarks } from "../watermarks/index.ts";
import { sharesRepo } from "./repo.ts";
import type { Visit } from "./visitor.ts";

/** Visitors' comments and field edits, per address and link: plenty for a person, little for a script. */
export const VISITOR_WRITES: Limit = { max: 60, windowSeconds: 600 };
const WRITES_THROTTLED = "Too many comments or edits from here. Try again later.";

/**
 * What a share-link visitor can do (spec 02 §7, issue 17), each through the token: the payload,
 * browsing a shared board's subtree, an asset, comments and field values. Every call goes through
 * the same services members use, with the visitor as the actor, so `access.require` judges the
 * link's flags and subtree exactly as it judges members' roles.
 */
export function createSharedService(deps: {
  db: Db;
  assets: AssetsService;
  versions: Pick<VersionsService, "list">;
  listing: ListingService;
  comments: CommentsService;
  fields: FieldsService;
  downloads: DownloadsService;
  ai: Pick<AiActionsService, "recognisedText">;
  limiter: RateLimiter;
  watermarks: Pick<Watermarks, "video">;
}) {
  const { db } = deps;
  const ws = (v: Visit) => v.link.workspace_id;
  /** Counting never fails an answer: the use happened whether or not its counter was written. */
  const count = (v: Visit, kind: Parameters<typeof sharesRepo.bump>[2]) =>
    sharesRepo.bump(db, v.link.id, kind).catch(() => undefined);
  /** The asset a visitor names, or the asset link's own. */
  const assetOf = (v: Visit, assetId: string | undefined): string => {
    const id = assetId ?? (v.link.content_type === "asset" ? v.link.object_id : undefined);
    if (!id) throw notFound("Asset not found.");
    return id;
  };
  /** Counts a visitor's write against their address (429 with Retry-After once over). */
  async function throttleWrite(v: Visit) {
    const key = `share-write:${v.link.id}:${v.ip}`;
    await deps.limiter.consume([[key, VISITOR_WRITES]], WRITES_THROTTLED);
  }
  /** The board a visitor's new comment belongs to: the asset link's board, or the shared board. */
  const commentBoard = (v: Visit) => (v.link.content_type === "asset" ? v.link.board_id : v.link.object_id);

  async function fieldValues(v: Visit, assetId: string) {
    const entries = await deps.fields.entriesFor(v.visitor, ws(v), assetId);
    return entries.flatMap((e) => (e.value ? [{ ...e.value, field: e.field }] : []));
  }

  return {
    /**
     * What a link preview (OpenGraph) may show: the name and a thumbnail of an open link; nothing for
     * a link behind a password, disabled or expired. Not counted as an open (crawlers fetch it).
     */
    async preview(v: Visit): Promise<{ title: string; image: string | null } | null> {
      const { link } = v;
      if (link.password_hash !== null) return null;
      if (link.content_type === "asset") {
        const a = await deps.assets.get(v.visitor, ws(v), link.object_id);
        return { title: a.name, image: a.thumbnail_url };
      }
      const board = await this.board(v, undefined);
      const first = (await deps.listing.listBoard(v.visitor, link.object_id, 1, 1)).data[0];
      return { title: board.name, image: first?.thumbnail_url ?? null };
    },
    async payload(v: Visit): Promise<SharedPayload> {
      const { link } = v;
      const settings = {
        content_type: link.content_type,
        allow_commenting: link.allow_commenting,
        show_comments: link.show_comments,
        show_custom_fields: link.show_custom_fields,
        allow_editing_custom_fields: link.allow_editing_custom_fields,
        allow_downloads: link.allow_downloads,
        show_versions: link.show_versions,
        has_password: link.password_hash !== null,
        expires_at: link.expires_at?.toISOString() ?? null,
        watermarked: link.watermark_hash !== null,
      };
      const workspace_name = await sharesRepo.workspaceName(db, ws(v));
      await count(v, "open");
      if (link.content_type === "board") {
        return {
          share_settings: settings,
          workspace_name,
          asset: null,
          board: await this.board(v, undefined),
          comments: null,
          custom_fields: null,
        };
      }
      const asset = await deps.assets.get(v.visitor, ws(v), link.object_id);
      return {
        share_settings: settings,
        workspace_name,
        asset,
        board: null,
        comments: link.show_comments ? (await this.comments(v, {})).results : null,
        custom_fields: link.show_custom_fields ? await fieldValues(v, link.object_id) : null,
      };
    },
    async board(v: Visit, boardId: string | undefined): Promise<SharedBoard> {
      if (v.link.content_type !== "board") throw notFound("Board not found.");
      const found = await sharesRepo.subtreeBoard(db, ws(v), v.link.object_id, boardId ?? v.link.object_id);
      if (!found) throw notFound("Board not found.");
      return found;
    },
    async assets(v: Visit, q: { board_id?: string; page: number; page_size: number }): Promise<AssetListAnswer> {
      if (v.link.content_type !== "board") throw notFound("Board not found.");
      return deps.listing.listBoard(v.visitor, q.board_id ?? v.link.object_id, q.page, q.page_size);
    },
    async asset(v: Visit, assetId: string): Promise<Asset> {
      const asset = await deps.assets.get(v.visitor, ws(v), assetId);
      await count(v, "view");
      return asset;
    },
    /** A shared asset's versions (the link showing versions; else 403). */
    async versions(v: Visit, assetId: string): Promise<AssetVersion[]> {
      return deps.versions.list(v.visitor, ws(v), assetId);
    },
    async comments(
      v: Visit,
      q: { object_id?: string; parent_id?: string; version_id?: string; all_versions?: boolean },
    ): Promise<CommentPage> {
      return deps.comments.list(v.visitor, ws(v), {
        content_type: "asset",
        object_id: assetOf(v, q.object_id),
        parent_id: q.parent_id,
        version_id: q.version_id,
        all_versions: q.all_versions,
        limit: 500,
      });
    },
    async comment(v: Visit, body: z.output<typeof SharedCommentBody>): Promise<Comment> {
      const { object_id, author_name, author_email, ...rest } = body;
      await throttleWrite(v);
      const created = await deps.comments.create(
        v.visitor,
        ws(v),
        { ...rest, content_type: "asset", object_id: assetOf(v, object_id), board_id: commentBoard(v), mentions: [] },
        { name: author_name, email: author_email },
      );
      await count(v, "comment");
      return created;
    },
    /** A zip of a board of a shared board's subtree (the flags decide, in the downloads service). */
    async download(v: Visit, boardId: string | undefined) {
      if (v.link.content_type !== "board") throw notFound("Board not found.");
      const answer = await deps.downloads.requestForVisitor(v.visitor, boardId ?? v.link.object_id);
      await count(v, "download");
      return answer;
    },
    /**
     * A shared video's watermarked copy (issue 33): its state, started on the first ask; its URL once
     * made. The plain video is never handed out meanwhile (the asset's video URL is the copy's).
     */
    async watermarkedVideo(v: Visit, assetId: string): Promise<WatermarkedVideo> {
      const asset = await deps.assets.get(v.visitor, ws(v), assetId);
      const marking = v.visitor.watermark;
      if (!marking || !asset.video_url || !asset.directory) throw notFound("This link shows no watermarked video.");
      const state = await deps.watermarks.video({
        linkId: v.link.id,
        hash: marking.hash,
        visitor: v.visitor.watermarkVisitor ?? "",
        directory: asset.directory,
      });
      return { ...state, video_url: state.state === "ready" ? asset.video_url : null };
    },
    /** The text read in a shared asset (its Details tab): the members' service, the visitor as actor. */
    async recognisedText(v: Visit, assetId: string) {
      return deps.ai.recognisedText(v.visitor, ws(v), assetId);
    },
    async fields(v: Visit, assetId: string) {
      return deps.fields.entriesFor(v.visitor, ws(v), assetId);
    },
    async setField(v: Visit, fieldId: string, body: z.output<typeof SharedFieldValueBody>) {
      const { asset_id, editor_name, editor_email: _email, ...value } = body;
      const assetId = assetOf(v, asset_id);
      await throttleWrite(v);
      await deps.fields.setValue(v.visitor, ws(v), fieldId, { asset_ids: [assetId], ...value }, editor_name);
      await count(v, "field_edit");
      const entry = (await deps.fields.entriesFor(v.visitor, ws(v), assetId)).find((e) => e.field.id === fieldId);
      return { success: true as const, value: entry?.value ?? null };
    },
  };
}
export type SharedService = ReturnType<typeof createSharedService>;

import { randomUUID } from "node:crypto";
import {
  type AnnotationFields,
  COMMENT_LINK_PARAM,
  type Comment,
  type CommentPage,
  type CommentsExportQuery,
  type CommentsQuery,
  type CreateCommentBody,
  drawingAnchor,
  type UpdateCommentBody,
  VERSION_MESSAGES,
} from "@hangar/contract";
import { z } from "zod";
import type { Db } from "../../db/db.ts";
import { composeMail } from "../../mail/compose.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { type Access, allows, type Grant } from "../../platform/access.ts";
import { type Actor, linkBoard } from "../../platform/actor.ts";
import { forbidden, invalid, notFound } from "../../platform/errors.ts";
import { isForeignKeyViolation } from "../../platform/pg-errors.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import type { AuditRecord } from "../audit/index.ts";
import { commentsCsv, commentsPdf, type ExportAsset } from "./export.ts";
import { COMMENT, canDeleteComment, canEditComment, canResolveComment } from "./policy.ts";
import { type BoardScope, type CommentRecord, commentsRepo } from "./repo.ts";
import { authorDisplay, serializeComment } from "./serialize.ts";

type Query = z.output<typeof CommentsQuery>;
type CreateBody = z.output<typeof CreateCommentBody>;
type UpdateBody = z.output<typeof UpdateCommentBody>;
type ExportQuery = z.output<typeof CommentsExportQuery>;

/** A share-link visitor's own name and e-mail for what they write (trimmed; empty is none). */
export interface VisitorIdentity {
  name: string | null;
  email: string | null;
}

const NOT_FOUND = "Comment not found.";
const ASSET_NOT_FOUND = "Asset not found.";

export function createCommentsService(deps: {
  db: Db;
  access: Access;
  mailer: Mailer;
  store: BlobStore;
  publicUrl: string;
  /** Exports are recorded in the audit log (issue 36). */
  audit?: (r: AuditRecord) => Promise<void>;
}) {
  const { db, access } = deps;
  const assetResource = (workspaceId: string, assetId: string) => ({ kind: "asset", workspaceId, assetId }) as const;

  /** The comment and the caller's grant on it; 404 for what the caller may not see (or that is not there). */
  async function load(actor: Actor, workspaceId: string, id: string): Promise<{ row: CommentRecord; grant: Grant }> {
    const row = await commentsRepo.get(db, workspaceId, id);
    if (!row) {
      // Outsiders and members alike get the same answer; members only after the workspace check.
      await access.require(actor, COMMENT.view, { kind: "workspace", workspaceId });
      throw notFound(NOT_FOUND);
    }
    const grant = await access.require(actor, COMMENT.view, {
      kind: "comment",
      workspaceId,
      assetId: row.asset_id,
      commentId: id,
    });
    return { row, grant };
  }

  /**
   * The asset and the version commented on (`versionId`, else the current one), with the annotation
   * checked against that version's pages and length.
   */
  async function checkAnnotation(
    workspaceId: string,
    assetId: string,
    a: Pick<AnnotationFields, "annotation_type" | "page" | "timestamp" | "duration">,
    versionId: string | null | undefined,
    /** Whether the caller may write on another version than the current one (a link: show_versions). */
    otherVersions: boolean,
  ) {
    const found = await commentsRepo.assetFacts(db, workspaceId, assetId);
    if (!found) throw notFound(ASSET_NOT_FOUND);
    if (versionId && versionId !== found.current_version_id && !otherVersions)
      throw forbidden(VERSION_MESSAGES.linkCurrentOnly);
    const version = await commentsRepo.versionFacts(db, assetId, versionId ?? found.current_version_id);
    if (!version) throw notFound(VERSION_MESSAGES.notFound);
    const asset = { ...found, ...version, id: found.id, version_id: version.id };
    const errors: { field: string; message: string }[] = [];
    if (a.page != null) {
      if (!asset.page_count) errors.push({ field: "page", message: "This asset has no pages" });
      else if (a.page > asset.page_count)
        errors.push({ field: "page", message: `The document has ${asset.page_count} page(s)` });
    }
    if ((a.timestamp != null || a.duration != null) && asset.file_type !== "VIDEO")
      errors.push({ field: "timestamp", message: "Only video comments have a timestamp" });
    else if (asset.file_type === "VIDEO" && a.annotation_type !== "NONE" && a.timestamp == null)
      // Coordinates on a video are on one frame: the annotation names it.
      errors.push({ field: "timestamp", message: "An annotation on a video needs the frame's time" });
    else if (asset.duration != null) {
      // A remark on the timeline lies within the clip (a frame's time is rounded to the millisecond).
      const length = asset.duration + 0.001;
      const seconds = `${Math.round(asset.duration * 100) / 100} s`;
      if (a.timestamp != null && a.timestamp > length)
        errors.push({ field: "timestamp", message: `The video is ${seconds} long` });
      else if (a.timestamp != null && a.duration != null && a.timestamp + a.duration > length)
        errors.push({ field: "duration", message: `The remark runs past the video's end (${seconds})` });
    }
    if (errors.length) throw invalid(errors[0]!.message, errors);
    return asset;
  }

  async function checkMentions(workspaceId: string, ids: string[] | undefined): Promise<string[] | undefined> {
    if (ids === undefined) return undefined;
    const unique = [...new Set(ids)];
    const members = new Set(await commentsRepo.membersAmong(db, workspaceId, unique));
    const outside = unique.filter((id) => !members.has(id));
    if (outside.length)
      throw invalid("Only members of this workspace can be mentioned", [
        { field: "mentions", message: "Only members of this workspace can be mentioned" },
      ]);
    return unique;
  }

  /** E-mails each newly mentioned member (not the author) a link to the asset at this comment. */
  async function mailMentions(c: CommentRecord, assetName: string, userIds: string[]) {
    const to = await commentsRepo.users(
      db,
      userIds.filter((id) => id !== c.author_id),
    );
    const where = c.board_id
      ? `/w/${c.workspace_id}/b/${c.board_id}/a/${c.asset_id}`
      : `/w/${c.workspace_id}/a/${c.asset_id}`;
    const url = `${deps.publicUrl}${where}?${COMMENT_LINK_PARAM}=${c.id}`;
    for (const u of to)
      await deps.mailer.send(
        composeMail({
          to: u.email,
          subject: "You were mentioned in a comment",
          paragraphs: [`${authorDisplay(c)} mentioned you in a comment on “${assetName}”:`, c.text],
          link: { url, label: "Open the comment" },
        }),
      );
  }

  /** A file name from a title: letters, digits and a few separators only. */
  const fileName = (title: string, ext: string) =>
    `${
      title
        .replace(/[^\p{L}\p{N} ._-]+/gu, "")
        .trim()
        .slice(0, 80) || "comments"
    } comments.${ext}`;

  return {
    /** Comments follow their versions to another asset (versions stacked or detached: assets/versions-service.ts). */
    follow: (tx: Db, toAssetId: string, from: { assetIds: string[] } | { versionId: string }) =>
      commentsRepo.follow(tx, toAssetId, from),

    /** An asset's or a board's comments as CSV, or as a PDF report with the annotations drawn. */
    async exportFile(actor: Actor, workspaceId: string, q: ExportQuery) {
      let title: string;
      let assetIds: string[];
      let board: BoardScope;
      if (q.content_type === "asset") {
        await access.require(actor, COMMENT.export, assetResource(workspaceId, q.object_id));
        const asset = await commentsRepo.assetFacts(db, workspaceId, q.object_id);
        if (!asset) throw notFound(ASSET_NOT_FOUND);
        title = asset.name;
        assetIds = [asset.id];
        board = undefined;
      } else {
        await access.require(actor, COMMENT.export, { kind: "board", workspaceId, boardId: q.object_id });
        const name = await commentsRepo.boardName(db, workspaceId, q.object_id);
        if (name === null) throw notFound("Board not found.");
        title = name;
        assetIds = await commentsRepo.boardAssetIds(db, workspaceId, q.object_id);
        board = q.object_id; // this board's comments and the global ones, not other boards'
      }
      const comments = await commentsRepo.ofAssets(db, workspaceId, assetIds, board);
      const facts = await commentsRepo.assetsFacts(db, workspaceId, assetIds);
      const versions = await commentsRepo.versionsMedia(db, [...new Set(comments.map((c) => c.version_id))]);
      const assets: ExportAsset[] = facts.map((a) => ({
        id: a.id,
        name: a.name,
        file_type: a.file_type,
        versions: versions.filter((v) => v.asset_id === a.id),
        comments: comments.filter((c) => c.asset_id === a.id),
      }));
      await deps.audit?.({
        workspaceId,
        action: `${q.content_type}.comments_exported`,
        object: { type: q.content_type, id: q.object_id, name: title },
        changes: { format: q.format, comments: comments.length },
      });
      if (q.format === "csv")
        return { filename: fileName(title, "csv"), contentType: "text/csv; charset=utf-8", body: commentsCsv(assets) };
      return {
        filename: fileName(title, "pdf"),
        contentType: "application/pdf",
        body: await commentsPdf(`Comments: ${title}`, assets, deps.store),
      };
    },

    async list(actor: Actor, workspaceId: string, q: Query): Promise<CommentPage> {
      const grant = await access.require(actor, COMMENT.view, assetResource(workspaceId, q.object_id));
      const cursor = q.cursor && z.uuid().safeParse(q.cursor).success ? q.cursor : null;
      if (q.cursor && !cursor) throw invalid("Invalid cursor", [{ field: "cursor", message: "Invalid cursor" }]);
      const asset = await commentsRepo.assetFacts(db, workspaceId, q.object_id);
      if (!asset) throw notFound(ASSET_NOT_FOUND);
      let page: { rows: CommentRecord[]; count: number };
      // A visitor sees the threads of the link's board only, whatever board they ask for.
      const visitorBoard = grant.kind === "visitor" ? linkBoard(grant.visitor) : undefined;
      /** Another version than the current one: a link's visitors only when it shows versions (403). */
      const otherVersion = () => {
        if (!allows(grant, COMMENT.versions)) throw forbidden(VERSION_MESSAGES.linkCurrentOnly);
      };
      if (q.parent_id) {
        const parent = await commentsRepo.get(db, workspaceId, q.parent_id);
        if (!parent || parent.asset_id !== q.object_id) throw notFound(NOT_FOUND);
        if (visitorBoard !== undefined && parent.board_id !== visitorBoard) throw notFound(NOT_FOUND);
        if (parent.version_id !== asset.current_version_id) otherVersion();
        page = await commentsRepo.replies(db, parent.thread_id, cursor, q.limit);
      } else {
        const asked: BoardScope = q.board_id === undefined ? undefined : q.board_id === "null" ? null : q.board_id;
        // One version's threads (by default the current one's), or every version's.
        let version: string | null = q.all_versions && !q.version_id ? null : asset.current_version_id;
        if (version !== asset.current_version_id || (q.version_id && q.version_id !== version)) otherVersion();
        if (q.version_id) {
          if (!(await commentsRepo.versionFacts(db, q.object_id, q.version_id)))
            throw notFound(VERSION_MESSAGES.notFound);
          version = q.version_id;
        }
        page = await commentsRepo.topLevel(
          db,
          q.object_id,
          visitorBoard !== undefined ? visitorBoard : asked,
          cursor,
          q.limit,
          version,
        );
      }
      const more = page.rows.length > q.limit;
      const rows = more ? page.rows.slice(0, q.limit) : page.rows;
      return {
        results: rows.map((r) => serializeComment(r, grant)),
        next_cursor: more ? rows[rows.length - 1]!.id : null,
        count: page.count,
      };
    },

    async create(actor: Actor, workspaceId: string, body: CreateBody, visitor?: VisitorIdentity): Promise<Comment> {
      const grant = await access.require(actor, COMMENT.create, assetResource(workspaceId, body.object_id));
      const parent = body.parent_id ? await commentsRepo.get(db, workspaceId, body.parent_id) : null;
      // A reply is on its thread's version; a thread on the version named, else the current one.
      const asset = await checkAnnotation(
        workspaceId,
        body.object_id,
        body,
        parent?.version_id ?? body.version_id,
        allows(grant, COMMENT.versions),
      );
      let threadId: string;
      let parentId: string | null = null;
      let boardId: string | null = body.board_id ?? null;
      const id = randomUUID();
      if (body.parent_id) {
        if (!parent || parent.asset_id !== body.object_id) throw notFound("The comment you reply to is gone.");
        // A visitor answers only the threads they see: their link's board's.
        if (grant.kind === "visitor" && parent.board_id !== linkBoard(grant.visitor))
          throw notFound("The comment you reply to is gone.");
        threadId = parent.thread_id;
        parentId = parent.id;
        boardId = parent.board_id; // a reply stays in its thread's context
      } else {
        threadId = id;
        if (boardId && !(await commentsRepo.liveBoard(db, workspaceId, boardId))) throw notFound("Board not found.");
      }
      const mentions = grant.kind === "member" ? ((await checkMentions(workspaceId, body.mentions)) ?? []) : [];
      const gone = () => notFound(parentId ? "The comment you reply to is gone." : ASSET_NOT_FOUND);
      // A drawing is pinned (numbered) at its first shape's first point.
      const anchor = body.annotation_type === "DRAWING" && body.shapes ? drawingAnchor(body.shapes) : null;
      await commentsRepo
        .insert(
          db,
          {
            id,
            workspace_id: workspaceId,
            asset_id: body.object_id,
            version_id: asset.version_id,
            parent_id: parentId,
            thread_id: threadId,
            board_id: boardId,
            author_id: grant.kind === "member" ? grant.userId : null,
            author_name: visitor?.name ?? null,
            author_email: visitor?.email ?? null,
            share_link_id: grant.kind === "visitor" ? grant.visitor.linkId : null,
            text: body.text,
            severity: body.severity,
            annotation_type: body.annotation_type,
            x: anchor?.x ?? body.x ?? null,
            y: anchor?.y ?? body.y ?? null,
            width: body.width ?? null,
            height: body.height ?? null,
            page: body.page ?? null,
            timestamp_s: body.timestamp ?? null,
            duration_s: body.duration ?? null,
            shapes: body.annotation_type === "DRAWING" && body.shapes ? JSON.stringify(body.shapes) : null,
          },
          mentions,
        )
        // The thread (or the asset) was deleted between the read above and this insert.
        .catch((err: unknown) => {
          const raced = [
            "comments_parent_id_fkey",
            "comments_thread_id_fkey",
            "comments_asset_id_fkey",
            "comments_version_fkey",
          ];
          throw raced.some((c) => isForeignKeyViolation(err, c)) ? gone() : err;
        });
      const row = await commentsRepo.get(db, workspaceId, id);
      if (!row) throw gone(); // … or right after it, taking the new reply with it
      if (mentions.length) await mailMentions(row, asset.name, mentions);
      return serializeComment(row, grant);
    },

    /** One comment, for a mention's link to land on it (its thread, page and time). */
    async get(actor: Actor, workspaceId: string, id: string): Promise<Comment> {
      const { row, grant } = await load(actor, workspaceId, id);
      return serializeComment(row, grant);
    },

    async update(actor: Actor, workspaceId: string, id: string, body: UpdateBody): Promise<Comment> {
      const { row, grant } = await load(actor, workspaceId, id);
      await access.require(actor, COMMENT.edit, { kind: "comment", workspaceId, assetId: row.asset_id, commentId: id });
      if (!canEditComment(grant, row)) throw forbidden("Only the author can edit a comment.");
      const mentions = await checkMentions(workspaceId, body.mentions);
      const added = await commentsRepo.updateText(
        db,
        id,
        { text: body.text, ...(body.severity ? { severity: body.severity } : {}) },
        mentions,
      );
      const updated = (await commentsRepo.get(db, workspaceId, id))!;
      if (added.length) {
        const asset = await commentsRepo.assetFacts(db, workspaceId, row.asset_id);
        if (asset) await mailMentions(updated, asset.name, added);
      }
      return serializeComment(updated, grant);
    },

    async remove(actor: Actor, workspaceId: string, id: string) {
      const { row, grant } = await load(actor, workspaceId, id);
      await access.require(actor, COMMENT.delete, {
        kind: "comment",
        workspaceId,
        assetId: row.asset_id,
        commentId: id,
      });
      if (!canDeleteComment(grant, row)) throw forbidden("Only the author or an admin can delete a comment.");
      const deleted = await commentsRepo.remove(db, row);
      return { status: "ok" as const, deleted };
    },

    async resolve(actor: Actor, workspaceId: string, id: string, resolved: boolean): Promise<Comment> {
      const { row, grant } = await load(actor, workspaceId, id);
      await access.require(actor, COMMENT.resolve, {
        kind: "comment",
        workspaceId,
        assetId: row.asset_id,
        commentId: id,
      });
      if (row.parent_id !== null) throw invalid("Only a thread (its first comment) can be resolved");
      if (!canResolveComment(grant, row)) throw forbidden("Only the thread's author or an editor can resolve it.");
      if (grant.kind !== "member") throw forbidden();
      if (resolved !== (row.resolved_at !== null))
        await commentsRepo.setResolved(db, id, resolved ? grant.userId : null);
      return serializeComment((await commentsRepo.get(db, workspaceId, id))!, grant);
    },
  };
}
export type CommentsService = ReturnType<typeof createCommentsService>;

import {
  Asset,
  Comment,
  FileRequest,
  Member,
  Review,
  ShareLinkWithActivity,
  type WebhookEventType,
} from "@hangar/contract";
import { z } from "zod";
import type { UserRow } from "../../db/types.ts";
import type { UserActor } from "../../platform/actor.ts";
import { AppError } from "../../platform/errors.ts";

/**
 * Where the objects of events come from: the services the routes answer with, called as the
 * workspace itself (an ADMIN key-like actor), and encoded by the routes' own schemas, so a delivery's
 * object is what the API answers for it.
 */
export interface ObjectSources {
  asset(actor: UserActor, workspaceId: string, id: string): Promise<Asset>;
  comment(actor: UserActor, workspaceId: string, id: string): Promise<Comment>;
  review(actor: UserActor, workspaceId: string, id: string): Promise<Review>;
  share(actor: UserActor, workspaceId: string, id: string): Promise<ShareLinkWithActivity>;
  member(actor: UserActor, workspaceId: string, userId: string): Promise<Member>;
  uploadLink(actor: UserActor, workspaceId: string, id: string): Promise<FileRequest>;
}

export interface OutboxEvent {
  id: string;
  workspace_id: string;
  type: string;
  object_type: string;
  object_id: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** The workspace acting on itself: judged as an ADMIN key of the workspace, named as its first ADMIN. */
export const workspaceActor = (workspaceId: string, user: UserRow): UserActor => ({
  kind: "user",
  userId: user.id,
  sessionId: "",
  user,
  fresh: true,
  key: { id: workspaceId, workspaceId, scopes: ["admin"] },
});

/** What an object that can no longer be read is sent as: its id. */
const gone = (id: string) => ({ id });

async function read<T>(schema: z.ZodType<T>, get: () => Promise<T>, id: string): Promise<unknown> {
  try {
    return z.encode(schema, await get());
  } catch (err) {
    if (err instanceof AppError && err.code === "NOT_FOUND") return gone(id);
    throw err;
  }
}

/** The `data` of an event's body: `object`, and what the event adds (a version, a decision, the link). */
export async function eventData(
  ev: OutboxEvent,
  actor: UserActor | null,
  src: ObjectSources,
): Promise<Record<string, unknown>> {
  const ws = ev.workspace_id;
  const id = ev.object_id;
  const d = ev.data;
  if (ev.type === "member.removed") return { object: d.member ?? gone(id) };
  if (!actor) return { object: gone(id) };
  const object = await (async () => {
    switch (ev.object_type) {
      case "asset":
        return read(Asset, () => src.asset(actor, ws, id), id);
      case "comment":
        return read(Comment, () => src.comment(actor, ws, id), id);
      case "review":
        return read(Review, () => src.review(actor, ws, id), id);
      case "share":
        return read(ShareLinkWithActivity, () => src.share(actor, ws, id), id);
      case "member":
        return read(Member, () => src.member(actor, ws, id), id);
      default:
        return gone(id);
    }
  })();
  switch (ev.type as WebhookEventType) {
    case "asset.version_added":
      return { object, version_id: d.version_id, version_number: d.version_number };
    case "asset.processed":
      return { object, version_id: d.version_id, version_number: d.version_number, status: d.status };
    case "review.decided":
      return { object, decision: d.decision };
    case "upload_link.received": {
      const linkId = String(d.upload_link_id);
      return { object, upload_link: await read(FileRequest, () => src.uploadLink(actor, ws, linkId), linkId) };
    }
    default:
      return { object };
  }
}

/** A delivery's body, fixed when the delivery is made: the same bytes on every attempt and redelivery. */
export const eventBody = (ev: OutboxEvent, data: Record<string, unknown>) =>
  JSON.stringify({
    id: ev.id,
    type: ev.type,
    created_at: ev.created_at.toISOString(),
    workspace_id: ev.workspace_id,
    data,
  });

import type { ApiScope, ShareFlags, Watermark } from "@hangar/contract";
import type { UserRow } from "../db/types.ts";

/** A signed-in member: the role comes per workspace from the access layer, never from the actor. */
export interface UserActor {
  kind: "user";
  userId: string;
  sessionId: string;
  user: UserRow;
  /**
   * A mutating request: its services read roles and assets from the database, not the read cache,
   * so what they read after their own writes is what they wrote.
   */
  fresh?: boolean;
  /**
   * Set when a workspace API key is calling (issue 36, docs/architecture.md §4.4): an actor of its own
   * kind that the access layer judges by the key alone (its workspace, the role its scopes give),
   * never by the membership of `user`, who is the member that created it and is named as the author
   * of what it writes.
   */
  key?: ApiKeyGrant;
  /** The session came from a single sign-on (issue 36): workspaces requiring SSO let only these in. */
  sso?: boolean;
  /**
   * Set when a personal access token is calling (issue 36, §4.4): the user themself, in each
   * workspace with their own role there capped by the token's scopes (`keyRole`).
   */
  token?: PersonalTokenGrant;
}

/** What a personal access token may do: act as its user within its scopes. */
export interface PersonalTokenGrant {
  id: string;
  name: string;
  scopes: ApiScope[];
}

/** What a key may do: its workspace and scopes. */
export interface ApiKeyGrant {
  id: string;
  workspaceId: string;
  scopes: ApiScope[];
}

/**
 * Someone holding a share link (docs/architecture.md §3): they see one asset, or one board and its subtree, of
 * one workspace, and may do what the link's flags allow. The public share routes build one from the
 * token once the public links' gate lets the visit through (modules/shares/visitor.ts, the share kind
 * of modules/public-links); signed media URLs issued to it rebuild it from the link's row.
 */
export interface VisitorActor {
  kind: "visitor";
  linkId: string;
  workspaceId: string;
  /**
   * An asset link is bound to a board (its context): the asset must still be filed there. A review
   * link (issue 30) shows the assets of one review (`id`: the review).
   */
  content: { kind: "asset" | "board" | "review"; id: string; boardId?: string | null };
  /** The link's password version when it was unlocked: URLs issued to it name it, and die when it changes. */
  passwordVersion?: number;
  flags: ShareFlags;
  /** The link has no password, or the visitor sent the right one. */
  unlocked: boolean;
  name?: string;
  email?: string;
  /**
   * The link watermarks what its visitors see (issue 33): every media URL handed to them names the
   * settings' hash (and `watermarkVisitor`, for `{visitor}`); `downloads`: originals are stamped too.
   */
  watermark?: { hash: string; downloads: boolean; settings: Watermark };
  /** The name or e-mail the visitor's browser sent for the watermark's `{visitor}`. */
  watermarkVisitor?: string;
  /** A mutating request: the link and what it shows are read from the database, not the read cache. */
  fresh?: boolean;
}

/**
 * A link's board context: an asset link's board, or the shared board itself. Visitors see the threads
 * made in it and its name only, never another board's an asset is also filed in (issue 27). A review
 * link has none: its reviewer sees the threads made outside any board (where notes and their own go).
 */
export const linkBoard = (v: VisitorActor): string | null =>
  v.content.kind === "asset" ? (v.content.boardId ?? null) : v.content.kind === "review" ? null : v.content.id;

/** Who is calling. */
export type Actor = UserActor | VisitorActor | { kind: "anonymous" };

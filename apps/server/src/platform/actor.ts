import type { ShareFlags } from "@hangar/contract";
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
}

/**
 * Someone holding a share link (DESIGN.md §3): they see one asset, or one board and its subtree, of
 * one workspace, and may do what the link's flags allow. Share links do not exist yet, so no request
 * in production builds one; tests do, through the session hook's pluggable resolution.
 */
export interface VisitorActor {
  kind: "visitor";
  linkId: string;
  workspaceId: string;
  content: { kind: "asset" | "board"; id: string };
  flags: ShareFlags;
  /** The link has no password, or the visitor sent the right one. */
  unlocked: boolean;
  name?: string;
  email?: string;
}

/** Who is calling. */
export type Actor = UserActor | VisitorActor | { kind: "anonymous" };

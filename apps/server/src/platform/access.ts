import type { Role } from "@hangar/contract";
import type { Db } from "../db/db.ts";
import type { Actor } from "./actor.ts";
import { forbidden, notFound, unauthenticated } from "./errors.ts";
import { cacheKeys, type ReadCache } from "./read-cache.ts";

export type Permission = "workspace.read" | "workspace.comment" | "workspace.edit" | "workspace.admin";

const ALLOWED: Record<Permission, readonly Role[]> = {
  "workspace.read": ["ADMIN", "EDITOR", "COMMENTER"],
  "workspace.comment": ["ADMIN", "EDITOR", "COMMENTER"],
  "workspace.edit": ["ADMIN", "EDITOR"],
  "workspace.admin": ["ADMIN"],
};

export interface Grant {
  workspaceId: string;
  userId: string;
  role: Role;
}

/**
 * The one access layer (DESIGN.md §3). Services call `require` before touching a workspace's data.
 * Not a member (or the workspace is deleted) answers 404, so existence never leaks; a member whose
 * role is too low gets 403.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createAccess(db: Db, cache: ReadCache) {
  // One lookup per request and workspace: the route guard and the service share the answer.
  const memo = new WeakMap<Actor, Map<string, Role | null>>();

  async function cachedRole(actor: Extract<Actor, { kind: "user" }>, workspaceId: string): Promise<Role | null> {
    let m = memo.get(actor);
    if (!m) {
      m = new Map();
      memo.set(actor, m);
    }
    if (!m.has(workspaceId)) {
      const role = !UUID.test(workspaceId)
        ? null
        : actor.fresh
          ? await readRole(actor.userId, workspaceId)
          : await roleOf(actor.userId, workspaceId);
      m.set(workspaceId, role);
    }
    return m.get(workspaceId) ?? null;
  }

  /** The role the read cache holds (null: not a member); undefined when it holds none. */
  const peekRole = (userId: string, workspaceId: string) => cache.get<Role | null>(cacheKeys.role(userId, workspaceId));
  /** Keeps a role read at `snapshot`: void once the membership, the workspace or the user changes. */
  const keepRole = (userId: string, workspaceId: string, role: Role | null, snapshot: number) =>
    cache.set(
      cacheKeys.role(userId, workspaceId),
      role,
      [cacheKeys.workspace(workspaceId), cacheKeys.user(userId)],
      snapshot,
    );

  /** The user's role in a live workspace, or null: from the read cache, else one query (then cached). */
  async function roleOf(userId: string, workspaceId: string): Promise<Role | null> {
    const hit = peekRole(userId, workspaceId);
    if (hit !== undefined) return hit;
    const snap = cache.snapshot();
    const role = await readRole(userId, workspaceId);
    keepRole(userId, workspaceId, role, snap);
    return role;
  }

  async function readRole(userId: string, workspaceId: string): Promise<Role | null> {
    const row = await db
      .selectFrom("memberships as m")
      .innerJoin("workspaces as w", "w.id", "m.workspace_id")
      .select("m.role")
      .where("m.workspace_id", "=", workspaceId)
      .where("m.user_id", "=", userId)
      .where("w.deleted_at", "is", null)
      .executeTakeFirst();
    return row?.role ?? null;
  }

  return {
    roleOf,
    peekRole,
    keepRole,
    /** Records a role already read with the session (same request), so `require` needs no query. */
    prime(actor: Actor, workspaceId: string, role: Role | null) {
      if (actor.kind !== "user" || !UUID.test(workspaceId)) return;
      let m = memo.get(actor);
      if (!m) {
        m = new Map();
        memo.set(actor, m);
      }
      m.set(workspaceId, role);
    },
    async require(actor: Actor, permission: Permission, workspaceId: string): Promise<Grant> {
      if (actor.kind !== "user") throw unauthenticated();
      const role = await cachedRole(actor, workspaceId);
      if (!role) throw notFound("Workspace not found.");
      if (!ALLOWED[permission].includes(role)) throw forbidden();
      return { workspaceId, userId: actor.userId, role };
    },
    requireUser(actor: Actor) {
      if (actor.kind !== "user") throw unauthenticated();
      return actor;
    },
  };
}
export type Access = ReturnType<typeof createAccess>;

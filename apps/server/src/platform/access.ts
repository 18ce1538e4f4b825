import { type ApiScope, type Role, roleCan, SHARE_MESSAGES } from "@hangar/contract";
import type { Db } from "../db/db.ts";
import { accessRepo, type ShareLinkState } from "./access-repo.ts";
import type { Actor, UserActor, VisitorActor } from "./actor.ts";
import { auditVisitor } from "./audit-context.ts";
import { AppError, forbidden, notFound, unauthenticated } from "./errors.ts";
import type { Action } from "./policy.ts";
import { cacheKeys, type ReadCache } from "./read-cache.ts";

/**
 * What an access check is about inside a workspace. Each carries its workspace; members are judged
 * on the workspace (their service then finds the object, or 404); visitors also on whether the
 * object lies inside what their link shares, which is why the ids are here. A collection (the
 * workspace's boards, fields, members) is the workspace itself; a `field` is one field definition,
 * or its value on one asset when `assetId` is given.
 */
export type WorkspaceResource =
  | { kind: "workspace"; workspaceId: string }
  | { kind: "board"; workspaceId: string; boardId: string }
  | { kind: "asset"; workspaceId: string; assetId: string }
  | { kind: "comment"; workspaceId: string; assetId: string; commentId: string }
  | { kind: "field"; workspaceId: string; fieldId: string; assetId?: string }
  | { kind: "share_link"; workspaceId: string; linkId: string }
  /** A board's request-files links (`requestId`: one of them; null: the board's, or a new one). */
  | { kind: "file_request"; workspaceId: string; boardId: string; requestId: string | null };

/**
 * A person's account (profile, avatar, password, e-mail), which lies in no workspace: its owner may
 * do every action on it; someone who shares a live workspace with them may do what needs only
 * "view" (see their name and avatar); anyone else finds nothing (404).
 */
export type AccountResource = { kind: "account"; userId: string };

export type Resource = WorkspaceResource | AccountResource;

export const inWorkspace = (workspaceId: string): WorkspaceResource => ({ kind: "workspace", workspaceId });
export const account = (userId: string): AccountResource => ({ kind: "account", userId });

/** A member's grant carries the role; a visitor's the link. Either way `allows` answers abilities without a query. */
export type Grant =
  | { kind: "member"; workspaceId: string; userId: string; role: Role }
  | { kind: "visitor"; workspaceId: string; visitor: VisitorActor };

/** What `require` answers on an account: whether the caller is its owner. */
export type AccountGrant = { kind: "account"; userId: string; self: boolean };

/** A member's grant for a role read along with the data (lists of workspaces): abilities only. */
export const memberGrant = (workspaceId: string, role: Role, userId = ""): Grant => ({
  kind: "member",
  workspaceId,
  userId,
  role,
});

/** Whether a grant (already checked for the resource) allows another action on it: for `abilities`. */
export function allows(grant: Grant | AccountGrant, act: Action): boolean {
  if (grant.kind === "account") return grant.self || act.role === "view";
  if (grant.kind === "member") return roleCan(grant.role, act.role);
  return act.visitor !== false && grant.visitor.unlocked && act.visitor(grant.visitor.flags);
}

/**
 * The role an API key's scopes give it in its workspace (issue 36): `admin` acts as ADMIN, any write
 * scope but comments as EDITOR, else COMMENTER. It is a ceiling: each route also needs its own scope
 * (the session hook checks `routeScope`), so a read-only key never comments although COMMENTER could.
 */
export function keyRole(scopes: readonly ApiScope[]): Role {
  if (scopes.includes("admin")) return "ADMIN";
  if (scopes.some((s) => s === "assets:write" || s === "shares:write" || s === "reviews:write")) return "EDITOR";
  return "COMMENTER";
}

/** What the read cache keeps of whether a visitor sees something: until when (an asset's rights' end). */
type SeenUntil = { sees: boolean; until: number | null };
const RANK: Record<Role, number> = { COMMENTER: 0, EDITOR: 1, ADMIN: 2 };
/** The lower of two roles: a personal access token's scopes cap its user's role. */
const capRole = (role: Role | null, cap: Role): Role | null => (role && RANK[role] > RANK[cap] ? cap : role);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The one access layer (docs/architecture.md §3). Services call `require(actor, action, resource)` before
 * touching a workspace's data or an account; its queries are all in access-repo.ts. What the caller may not see answers 404, so existence never leaks:
 * not a member (or the workspace is deleted), a visitor outside their link's content. A member whose
 * role is too low, or a visitor whose link's flags forbid the action on content they see, gets 403.
 */
export function createAccess(db: Db, cache: ReadCache, clock: { now(): Date } = { now: () => new Date() }) {
  /** Whether an asset matches a smart board of a shared subtree (set once by the runtime, issue 33). */
  let smartSees: ((workspaceId: string, rootBoardId: string, assetId: string) => Promise<boolean>) | null = null;
  // One lookup per request and workspace: the route guard and the service share the answer.
  const memo = new WeakMap<UserActor, Map<string, Role | null>>();
  const memoOf = (actor: UserActor) => {
    let m = memo.get(actor);
    if (!m) {
      m = new Map();
      memo.set(actor, m);
    }
    return m;
  };

  async function cachedRole(actor: UserActor, workspaceId: string): Promise<Role | null> {
    // A key is judged by itself: its one (live, checked when it authenticated) workspace and scopes.
    if (actor.key) return actor.key.workspaceId === workspaceId ? keyRole(actor.key.scopes) : null;
    const m = memoOf(actor);
    if (!m.has(workspaceId)) {
      const role = !UUID.test(workspaceId)
        ? null
        : actor.fresh
          ? await accessRepo.role(db, actor.userId, workspaceId)
          : await roleOf(actor.userId, workspaceId);
      m.set(workspaceId, role);
    }
    const role = m.get(workspaceId) ?? null;
    // A personal access token is its user, no more than its scopes allow.
    return actor.token ? capRole(role, keyRole(actor.token.scopes)) : role;
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
    if (!UUID.test(workspaceId)) return null;
    const hit = peekRole(userId, workspaceId);
    if (hit !== undefined) return hit;
    const snap = cache.snapshot();
    const role = await accessRepo.role(db, userId, workspaceId);
    keepRole(userId, workspaceId, role, snap);
    return role;
  }

  /**
   * Whether the resource lies inside what the visitor's link shares: from the read cache (void once
   * anything in the workspace changes: the link, its board, the asset's boards), else one query.
   */
  async function visitorSees(v: VisitorActor, resource: WorkspaceResource): Promise<boolean> {
    if (v.workspaceId !== resource.workspaceId || !v.unlocked) return false;
    switch (resource.kind) {
      case "workspace":
      case "share_link":
      case "file_request":
        return false;
      case "field":
        // A field value belongs to an asset; a field definition is the workspace's, not shared.
        return (
          resource.assetId !== undefined && visitorSees(v, { ...resource, kind: "asset", assetId: resource.assetId })
        );
    }
    const key =
      resource.kind === "board"
        ? cacheKeys.linkSees(v.linkId, "b", resource.boardId)
        : cacheKeys.linkSees(v.linkId, "a", resource.assetId);
    // An asset's usage rights end at a point in time (issue 33): what is kept says until when it is
    // seen, so a cached answer never outlives the rights (a change to them voids it like any other).
    const seenNow = (e: SeenUntil) => e.sees && (e.until === null || clock.now().getTime() < e.until);
    const hit = v.fresh ? undefined : cache.get<SeenUntil>(key);
    if (hit !== undefined) return seenNow(hit);
    const snap = cache.snapshot();
    const sees = await visitorSeesNow(v, resource);
    const end = sees && resource.kind !== "board" ? await accessRepo.rightsEnd(db, resource.assetId) : null;
    const entry: SeenUntil = { sees, until: end?.getTime() ?? null };
    cache.set(key, entry, [cacheKeys.workspace(v.workspaceId)], snap);
    return seenNow(entry);
  }

  async function visitorSeesNow(
    v: VisitorActor,
    resource: Extract<Resource, { kind: "asset" | "comment" | "board" }>,
  ): Promise<boolean> {
    const { content } = v;
    if (resource.kind === "board")
      return content.kind === "board" && accessRepo.boardInSubtree(db, v.workspaceId, content.id, resource.boardId);
    // A review link sees the review's live assets, nothing else.
    if (content.kind === "review") return accessRepo.assetInReview(db, v.workspaceId, content.id, resource.assetId);
    if (content.kind === "asset") {
      if (content.id !== resource.assetId) return false;
      // Still filed in the link's board: moved out, it leaves the link at once.
      return content.boardId
        ? accessRepo.assetInBoard(db, v.workspaceId, resource.assetId, content.boardId)
        : accessRepo.liveAsset(db, v.workspaceId, resource.assetId);
    }
    if (await accessRepo.assetInBoardSubtree(db, v.workspaceId, content.id, resource.assetId)) return true;
    // Or it matches a smart board of the subtree now (issue 33): the listing module judges that.
    return smartSees ? smartSees(v.workspaceId, content.id, resource.assetId) : false;
  }

  /**
   * A share link's (or review link's) state, as a signed URL's check needs it: from the read cache, as sessions are (the
   * link's own changes void it through its workspace's key, migration 20261128-0101), else one query.
   */
  async function linkState(linkId: string): Promise<ShareLinkState | undefined> {
    const key = cacheKeys.link(linkId);
    const hit = cache.get<ShareLinkState>(key);
    if (hit) return hit;
    const snap = cache.snapshot();
    // A URL is issued to a share link or to an outside reviewer's review link (their ids never clash).
    const link = (await accessRepo.shareLink(db, linkId)) ?? (await accessRepo.reviewLink(db, linkId));
    if (link) cache.set(key, link, [cacheKeys.workspace(link.workspace_id)], snap);
    return link;
  }

  /** An account: its owner, or (for "view" actions) someone who shares a live workspace with them. */
  async function requireAccount(actor: Actor, act: Action, resource: AccountResource): Promise<AccountGrant> {
    if (actor.kind !== "user") throw notFound();
    if (actor.userId === resource.userId) return { kind: "account", userId: resource.userId, self: true };
    if (!UUID.test(resource.userId) || !(await accessRepo.shareWorkspace(db, actor.userId, resource.userId)))
      throw notFound();
    const grant: AccountGrant = { kind: "account", userId: resource.userId, self: false };
    if (!allows(grant, act)) throw forbidden();
    return grant;
  }

  function require(actor: Actor, act: Action, resource: AccountResource): Promise<AccountGrant>;
  function require(actor: Actor, act: Action, resource: WorkspaceResource): Promise<Grant>;
  async function require(actor: Actor, act: Action, resource: Resource): Promise<Grant | AccountGrant> {
    if (resource.kind === "account") return requireAccount(actor, act, resource);
    if (actor.kind === "anonymous") throw notFound();
    if (actor.kind === "visitor") {
      if (!(await visitorSees(actor, resource))) throw notFound();
      const grant: Grant = { kind: "visitor", workspaceId: resource.workspaceId, visitor: actor };
      if (!allows(grant, act)) throw forbidden();
      auditVisitor(actor);
      return grant;
    }
    const role = await cachedRole(actor, resource.workspaceId);
    if (!role) throw notFound("Workspace not found.");
    if (!roleCan(role, act.role)) throw forbidden();
    return { kind: "member", workspaceId: resource.workspaceId, userId: actor.userId, role };
  }

  return {
    peekRole,
    keepRole,
    require,
    /** The judge of smart boards inside shared subtrees (issue 33); the runtime sets it once. */
    useSmartBoards(fn: (workspaceId: string, rootBoardId: string, assetId: string) => Promise<boolean>) {
      smartSees = fn;
    },
    /** Records a role already read with the session (same request), so `require` needs no query. */
    prime(actor: Actor, workspaceId: string, role: Role | null) {
      if (actor.kind !== "user" || !UUID.test(workspaceId)) return;
      memoOf(actor).set(workspaceId, role);
    },
    /**
     * The check for a signed URL when it is fetched: the member it was issued to must still pass
     * `require` now (a removed member or a deleted workspace answers 404); a share link must still be
     * active, unexpired, on the password version it was unlocked with, and the asset still inside
     * what it shares, with the flags allowing the action (a download needs allow_downloads).
     */
    async requireIssuer(issuer: Issuer, act: Action, resource: WorkspaceResource): Promise<Grant> {
      if (issuer.kind === "link") {
        const link = await linkState(issuer.linkId);
        if (!link || link.workspace_id !== resource.workspaceId) throw notFound();
        // The URL proves its holder had the link: saying why it stopped leaks nothing new.
        if (!link.is_active || (link.expires_at !== null && link.expires_at.getTime() <= Date.now()))
          throw new AppError("SHARE_LINK_INACTIVE", SHARE_MESSAGES.expired);
        if (link.password_version !== issuer.version)
          throw new AppError("SHARE_PASSWORD_REQUIRED", SHARE_MESSAGES.passwordRequired);
        const visitor = visitorOfLink(link, true);
        if (!(await visitorSees(visitor, resource))) throw notFound();
        const grant: Grant = { kind: "visitor", workspaceId: resource.workspaceId, visitor };
        if (!allows(grant, act)) throw notFound();
        return grant;
      }
      const role = await roleOf(issuer.userId, resource.workspaceId);
      if (!role) throw notFound();
      if (!roleCan(role, act.role)) throw notFound();
      return { kind: "member", workspaceId: resource.workspaceId, userId: issuer.userId, role };
    },
    /** Whether an asset is live (not in Recently deleted) in a live workspace: for URLs re-checked when used. */
    isLive: (workspaceId: string, assetId: string) => accessRepo.liveAsset(db, workspaceId, assetId),
    requireUser(actor: Actor): UserActor {
      if (actor.kind !== "user") throw unauthenticated();
      return actor;
    },
  };
}
export type Access = ReturnType<typeof createAccess>;

/** Who a signed URL was handed to: a member, or a share link's visitors (on one password version). */
export type Issuer = { kind: "user"; userId: string } | { kind: "link"; linkId: string; version: number };
/** The issuer of a URL handed to this actor, as the signer's opaque token (`u.<user>` or `l.<link>.<version>`). */
export function issuerOf(actor: UserActor | VisitorActor): string {
  return actor.kind === "user" ? `u.${actor.userId}` : `l.${actor.linkId}.${actor.passwordVersion ?? 0}`;
}
/** The issuer a verified URL names, or null when it names none (or nonsense). */
export function parseIssuer(token: string): Issuer | null {
  const id = token.slice(2, 38);
  if (!UUID.test(id)) return null;
  if (token.startsWith("u.") && token.length === 38) return { kind: "user", userId: id };
  const version = /^\.(\d{1,9})$/.exec(token.slice(38));
  if (token.startsWith("l.") && version) return { kind: "link", linkId: id, version: Number(version[1]) };
  return null;
}

/** A visitor of a link row (its flags and content); `unlocked` says whether its password was given. */
export function visitorOfLink(link: ShareLinkState, unlocked: boolean): VisitorActor {
  return {
    kind: "visitor",
    linkId: link.id,
    workspaceId: link.workspace_id,
    content: { kind: link.content_type, id: link.object_id, boardId: link.board_id },
    flags: {
      allow_commenting: link.allow_commenting,
      show_comments: link.show_comments,
      show_custom_fields: link.show_custom_fields,
      allow_editing_custom_fields: link.allow_editing_custom_fields,
      allow_downloads: link.allow_downloads,
      show_versions: link.show_versions,
    },
    unlocked,
    passwordVersion: link.password_version,
    ...(link.watermark && link.watermark_hash
      ? {
          watermark: {
            hash: link.watermark_hash,
            downloads: link.watermark.apply_to_downloads,
            settings: link.watermark,
          },
        }
      : {}),
  };
}

import { CSRF, SESSION_ONLY_MESSAGE, scopeAllows } from "@hangar/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { UserRow } from "../db/types.ts";
import type { AuthService } from "../modules/auth/index.ts";
import { type Access, inWorkspace } from "./access.ts";
import type { Actor, ApiKeyGrant, PersonalTokenGrant, UserActor } from "./actor.ts";
import { csrfBoundTo, newCsrfToken } from "./csrf.ts";
import { AppError, forbidden, notFound, unauthenticated } from "./errors.ts";
import { MUTATING, type RouteAccess } from "./http.ts";
import { foreignOrigin } from "./origin.ts";
import { WORKSPACE_VIEW } from "./policy.ts";
import { cacheKeys, type ReadCache } from "./read-cache.ts";
import { safeEqual } from "./tokens.ts";

export const SESSION_COOKIE = "hangar_session";
export const API_PREFIX = "/api/v1";

export interface CookieOptions {
  secure: "auto" | "always" | "never";
  ttlDays: number;
}

export const isSecure = (req: FastifyRequest, mode: CookieOptions["secure"]) =>
  mode === "always" || (mode === "auto" && req.protocol === "https");

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, opts: CookieOptions) {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(req, opts.secure),
    path: "/",
    maxAge: opts.ttlDays * 86_400,
  });
  // A new session gets a new CSRF token bound to it: one fetched before signing in is refused after
  // it, and a client that reads the cookie (docs: "Signing in and CSRF") needs no second request.
  setCsrfCookie(req, reply, newCsrfToken(token), opts);
}
/** Marks a browser that signed in to an account before; it passes the account-wide login limit. */
export const DEVICE_COOKIE = "hangar_device";
export function setDeviceCookie(req: FastifyRequest, reply: FastifyReply, value: string, opts: CookieOptions) {
  reply.setCookie(DEVICE_COOKIE, value, {
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(req, opts.secure),
    path: "/api/v1/users/login",
    maxAge: 365 * 86_400,
  });
}
export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
}

/** Double-submit token: readable by our own scripts only, echoed in a header on every mutation. */
export function issueCsrfToken(req: FastifyRequest, reply: FastifyReply, opts: CookieOptions): string {
  const token = newCsrfToken(req.cookies[SESSION_COOKIE]);
  setCsrfCookie(req, reply, token, opts);
  return token;
}
function setCsrfCookie(req: FastifyRequest, reply: FastifyReply, token: string, opts: CookieOptions) {
  reply.setCookie(CSRF.cookie, token, {
    httpOnly: false,
    sameSite: "lax",
    secure: isSecure(req, opts.secure),
    path: "/",
  });
}

function csrfOk(req: FastifyRequest): boolean {
  const cookie = req.cookies[CSRF.cookie];
  if (!cookie) return false;
  const sent = req.headers[CSRF.altHeader.toLowerCase()] ?? req.headers[CSRF.header.toLowerCase()];
  if (typeof sent !== "string" || !safeEqual(sent, cookie)) return false;
  // A signed-in caller's token must be bound to their session (a planted cookie cannot be).
  return req.actor.kind !== "user" || csrfBoundTo(sent, req.cookies[SESSION_COOKIE]);
}

/**
 * Runs before every route: who is calling (session cookie), CSRF on mutations, and the route's
 * declared access. Workspace membership itself is checked by services through the access layer.
 */
export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess;
  csrf: boolean;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A further way to say who is calling, tried when the session cookie names no member. Production
 * passes none (share links do not exist yet), so no request can become a visitor; the test harness
 * plugs one in to exercise visitors against the real route table.
 */
/** Authenticates a workspace API key's secret (modules/api-keys): 401 with the reason, 429 past its limit. */
export interface KeyAuthenticator {
  authenticate(secret: string): Promise<{ key: ApiKeyGrant; user: UserRow }>;
}

/** Authenticates a personal access token's secret (modules/api-keys): 401 with the reason, 429 past its limit. */
export interface TokenAuthenticator {
  authenticate(secret: string): Promise<{ token: PersonalTokenGrant; user: UserRow }>;
}

/** The secret of `Authorization: Bearer hgr_…` (a key) or `hgp_…` (a personal token), or null for neither. */
function bearerSecret(req: FastifyRequest): string | null {
  const m = /^Bearer\s+(hg[rp]_\S*)\s*$/i.exec(req.headers.authorization ?? "");
  return m ? m[1]! : null;
}

export const KEY_OUTSIDE_WORKSPACE =
  "API keys work only on their own workspace's routes (/workspaces/{id}/…); this route needs a signed-in member.";

export type ActorResolver = (req: FastifyRequest) => Promise<Actor | null> | Actor | null;

/**
 * A workspace's own rule on how its members signed in (modules/sso: "require single sign-on"),
 * checked after membership on each of its routes; throws the refusal (403 with the reason).
 */
export type SignInRule = (actor: UserActor, workspaceId: string) => Promise<void>;

export function installSessionHook(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    access: Access;
    cache: ReadCache;
    resolveActor?: ActorResolver;
    apiKeys?: KeyAuthenticator;
    signInRule?: SignInRule;
    personalTokens?: TokenAuthenticator;
  },
  routeTable: RouteEntry[],
) {
  const { auth, access, cache, resolveActor, apiKeys, signInRule, personalTokens } = deps;
  app.decorateRequest("actor", null as never);
  app.addHook("onRequest", async (req) => {
    req.actor = { kind: "anonymous" };
    const config = req.routeOptions.config;
    const url = req.routeOptions.url ?? "";
    const isApi = url.startsWith(API_PREFIX);
    if (!isApi && !url.startsWith("/media/")) return;
    const token = req.cookies[SESSION_COOKIE];
    const workspaceId = config.access === "workspace" ? ((req.params as { id?: string }).id ?? "") : undefined;
    const validWorkspace = workspaceId && UUID_RE.test(workspaceId) ? workspaceId : undefined;
    // A mutation is authorised against the database as it is now, never the read cache.
    const fresh = MUTATING.has(req.method);
    // An API key (issue 36, docs/architecture.md §4.4) speaks for itself on the routes of its own
    // workspace, with the scope each route needs, and needs no CSRF token (no browser sends it by
    // itself). Public routes ignore it; member routes outside a workspace refuse it.
    const secret = isApi && config.access !== "public" ? bearerSecret(req) : null;
    // A personal access token (§4.4) is its user, in every workspace they belong to (their role
    // there, capped by its scopes; an outsider's 404 as ever), on every route but those that make
    // secrets or change how one signs in; no CSRF either.
    const kind = secret?.slice(0, 4).toLowerCase();
    if (secret && kind === "hgp_" && personalTokens) {
      const { token, user } = await personalTokens.authenticate(secret);
      req.actor = { kind: "user", userId: user.id, sessionId: `token:${token.id}`, user, fresh, token };
      if (config.route?.sessionOnly) throw forbidden(SESSION_ONLY_MESSAGE);
      // Outside workspaces (the account, the list of workspaces) a narrowed token only reads.
      const scope = config.scope ?? (MUTATING.has(req.method) ? "admin" : null);
      if (scope && !scopeAllows(token.scopes, scope))
        throw forbidden(`This personal access token lacks the scope this route needs: ${scope}.`);
      if (workspaceId !== undefined) await access.require(req.actor, WORKSPACE_VIEW, inWorkspace(workspaceId));
      return;
    }
    if (secret && kind === "hgr_" && apiKeys) {
      const { key, user } = await apiKeys.authenticate(secret);
      req.actor = { kind: "user", userId: user.id, sessionId: `key:${key.id}`, user, fresh, key };
      if (workspaceId === undefined) throw forbidden(KEY_OUTSIDE_WORKSPACE);
      if (workspaceId !== key.workspaceId) throw notFound("Workspace not found.");
      const scope = config.scope ?? "admin";
      if (!scopeAllows(key.scopes, scope)) throw forbidden(`This API key lacks the scope this route needs: ${scope}.`);
      await access.require(req.actor, WORKSPACE_VIEW, inWorkspace(workspaceId));
      return;
    }
    if (token) {
      const s = await auth.resolveSession(token, validWorkspace, fresh);
      if (s) {
        req.actor = { kind: "user", userId: s.user.id, sessionId: s.sessionId, user: s.user, fresh, sso: s.sso };
        if (validWorkspace) access.prime(req.actor, validWorkspace, s.role);
      }
    }
    if (req.actor.kind === "anonymous" && resolveActor) req.actor = (await resolveActor(req)) ?? req.actor;
    if (!isApi) return; // media checks its own access (session or signature)
    // A visitor is judged before anything else, so every workspace route answers them 404, as it
    // would an outsider (CSRF and body errors included).
    if (workspaceId !== undefined && req.actor.kind === "visitor") {
      await access.require(req.actor, WORKSPACE_VIEW, inWorkspace(workspaceId));
    }
    if (fresh && config.csrf !== false && (!csrfOk(req) || foreignOrigin(req))) {
      throw new AppError("CSRF_FAILED", "CSRF token missing or incorrect.");
    }
    // Membership before body validation: an outsider learns nothing, not even what a valid body is.
    if (config.access !== "public" && req.actor.kind !== "user") throw unauthenticated();
    if (workspaceId !== undefined) {
      await access.require(req.actor, WORKSPACE_VIEW, inWorkspace(workspaceId));
      if (signInRule && req.actor.kind === "user") await signInRule(req.actor, workspaceId);
    }
  });

  // Read-your-writes: a mutation marks its caller and its workspace changed in this process's read
  // cache before the answer leaves (other processes hear it from the database's notification).
  app.addHook("onSend", async (req, _reply, payload) => {
    if (!MUTATING.has(req.method) || req.routeOptions.config.reads) return payload;
    if (req.actor?.kind === "user") cache.bump(cacheKeys.user(req.actor.userId));
    if (req.routeOptions.config.access === "workspace") {
      const id = (req.params as { id?: string }).id;
      if (id && UUID_RE.test(id)) cache.bump(cacheKeys.workspace(id));
    }
    return payload;
  });

  // Every API route must say who may call it; an undeclared one fails at start-up (and in tests).
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith(API_PREFIX) || route.method === "HEAD") return;
    const cfg = route.config as { access?: RouteAccess; csrf?: boolean } | undefined;
    if (!cfg?.access) throw new Error(`Route ${route.method} ${route.url} does not declare config.access`);
    if (cfg.access === "workspace" && !route.url.includes("/:id"))
      throw new Error(`Route ${route.url} is workspace-scoped but has no :id`);
    for (const method of [route.method].flat()) {
      routeTable.push({ method, url: route.url, access: cfg.access, csrf: cfg.csrf !== false });
    }
  });
}

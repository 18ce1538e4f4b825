import { ssoApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { metaOf, userOf } from "../../platform/route-helpers.ts";
import { type CookieOptions, isSecure, setSessionCookie } from "../../platform/session-hook.ts";
import type { AuthService } from "../auth/index.ts";
import { SSO_LOGIN_TTL_SECONDS, type SsoService } from "./service.ts";

/** Names the browser that started a sign-in: only it can finish it (its value's hash keys the row). */
const SSO_COOKIE = "hangar_sso";
const SSO_COOKIE_PATH = "/api/v1/auth/sso";

export function ssoRoutes(app: App, sso: SsoService, auth: AuthService, cookies: CookieOptions, publicUrl: string) {
  addRoute(app, api.options, async () => ({ data: sso.options() }));

  addRoute(app, api.start, async (req, reply) => {
    const { browserToken, location } = await sso.start(req.query.next);
    // Lax: the provider's redirect back is a top-level GET navigation, which carries it.
    reply.setCookie(SSO_COOKIE, browserToken, {
      httpOnly: true,
      sameSite: "lax",
      secure: isSecure(req, cookies.secure),
      path: SSO_COOKIE_PATH,
      maxAge: SSO_LOGIN_TTL_SECONDS,
    });
    return reply.header("Cache-Control", "no-store").redirect(location, 302);
  });

  addRoute(app, api.callback, async (req, reply) => {
    const currentUrl = new URL(req.url, publicUrl);
    const outcome = await sso.callback(req.query, currentUrl, req.cookies[SSO_COOKIE], metaOf(req));
    reply.clearCookie(SSO_COOKIE, { path: SSO_COOKIE_PATH });
    if (outcome.session) {
      // The browser's previous session (a password one, say) gives way to this one.
      if (req.actor.kind === "user" && !req.actor.key) await auth.logout(req.actor.sessionId);
      setSessionCookie(req, reply, outcome.session.token, cookies);
    }
    return reply.header("Cache-Control", "no-store").redirect(new URL(outcome.location, publicUrl).href, 302);
  });

  addRoute(app, api.workspaceGet, async (req) => ({
    data: await sso.workspaceGet(userOf(req), req.params.id),
  }));
  addRoute(app, api.workspaceUpdate, async (req) => ({
    data: await sso.workspaceUpdate(userOf(req), req.params.id, req.body.require_sso),
  }));
}

import { authApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { metaOf, userOf } from "../../platform/route-helpers.ts";
import {
  type CookieOptions,
  clearSessionCookie,
  DEVICE_COOKIE,
  issueCsrfToken,
  setDeviceCookie,
  setSessionCookie,
} from "../../platform/session-hook.ts";
import type { AuthService } from "./service.ts";

export function authRoutes(app: App, auth: AuthService, cookies: CookieOptions) {
  addRoute(app, api.csrfToken, async (req, reply) => ({
    data: { csrftoken: issueCsrfToken(req, reply, cookies) },
  }));

  addRoute(app, api.login, async (req, reply) => {
    const s = await auth.login(req.body.email, req.body.password, {
      ...metaOf(req),
      device: req.cookies[DEVICE_COOKIE],
    });
    setSessionCookie(req, reply, s.token, cookies);
    setDeviceCookie(req, reply, s.device, cookies);
    return { status: "ok" as const, data: s.user };
  });

  addRoute(app, api.logout, async (req, reply) => {
    if (req.actor.kind === "user") await auth.logout(req.actor.sessionId, req.actor.userId);
    clearSessionCookie(reply);
    return { status: "ok" as const };
  });

  addRoute(app, api.register, async (req, reply) => {
    const { answer, token } = await auth.register(req.body, metaOf(req));
    if (token) setSessionCookie(req, reply, token, cookies);
    return answer;
  });

  addRoute(app, api.resendVerification, async (req) => ({
    status: "ok" as const,
    detail: await auth.resendVerification(req.body.email, req.ip),
  }));

  addRoute(app, api.verifyEmail, async (req, reply) => {
    const s = await auth.verifyEmail(req.params.token, metaOf(req));
    setSessionCookie(req, reply, s.token, cookies);
    return { status: "ok" as const, data: s.user };
  });

  addRoute(app, api.verifyEmailChange, async (req) => ({
    status: "ok" as const,
    data: await auth.verifyEmailChange(req.params.token),
  }));

  addRoute(app, api.forgotPassword, async (req) => ({
    status: "ok" as const,
    detail: await auth.forgotPassword(req.body.email, req.ip),
  }));

  addRoute(app, api.resetPassword, async (req, reply) => {
    const detail = await auth.resetPassword(req.body.token, req.body.new_password);
    clearSessionCookie(reply);
    return { status: "ok" as const, detail };
  });

  addRoute(app, api.changePassword, async (req, reply) => {
    const s = await auth.changePassword(userOf(req), req.body.current_password, req.body.new_password, metaOf(req));
    setSessionCookie(req, reply, s.token, cookies);
    return { status: "ok" as const, detail: "Password changed. Other devices have been signed out." };
  });

  addRoute(app, api.changeEmail, async (req) => ({
    status: "ok" as const,
    detail: await auth.changeEmail(userOf(req), req.body.new_email, req.body.current_password),
  }));
}

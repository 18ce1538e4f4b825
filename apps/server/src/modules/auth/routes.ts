import {
  ChangeEmailBody,
  ChangePasswordBody,
  CsrfAnswer,
  DetailAnswer,
  EmailBody,
  LoginBody,
  MeAnswer,
  OkBody,
  RegisterAnswer,
  RegisterBody,
  ResetPasswordBody,
  TokenParams,
} from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { metaOf, userOf } from "../../platform/route-helpers.ts";
import {
  type CookieOptions,
  clearSessionCookie,
  issueCsrfToken,
  setSessionCookie,
} from "../../platform/session-hook.ts";
import type { AuthService } from "./service.ts";

export function authRoutes(app: App, auth: AuthService, cookies: CookieOptions) {
  const pub = { access: "public" as const };

  app.get(
    "/users/set-csrf-token",
    { config: pub, schema: { tags: ["auth"], response: { 200: CsrfAnswer } } },
    async (req, reply) => ({
      data: { csrftoken: issueCsrfToken(req, reply, cookies) },
    }),
  );

  app.post(
    "/users/login",
    { config: pub, schema: { tags: ["auth"], body: LoginBody, response: { 200: MeAnswer } } },
    async (req, reply) => {
      const s = await auth.login(req.body.email, req.body.password, metaOf(req));
      setSessionCookie(req, reply, s.token, cookies);
      return { status: "ok" as const, data: s.user };
    },
  );

  app.post(
    "/users/logout",
    { config: pub, schema: { tags: ["auth"], response: { 200: OkBody } } },
    async (req, reply) => {
      if (req.actor.kind === "user") await auth.logout(req.actor.sessionId);
      clearSessionCookie(reply);
      return { status: "ok" as const };
    },
  );

  app.post(
    "/users/register",
    { config: pub, schema: { tags: ["auth"], body: RegisterBody, response: { 200: RegisterAnswer } } },
    async (req, reply) => {
      const { answer, token } = await auth.register(req.body, metaOf(req));
      if (token) setSessionCookie(req, reply, token, cookies);
      return answer;
    },
  );

  app.post(
    "/users/resend-verification",
    { config: pub, schema: { tags: ["auth"], body: EmailBody, response: { 200: DetailAnswer } } },
    async (req) => ({ status: "ok" as const, detail: await auth.resendVerification(req.body.email, req.ip) }),
  );

  app.post(
    "/users/verify-email/:token",
    { config: pub, schema: { tags: ["auth"], params: TokenParams, response: { 200: MeAnswer } } },
    async (req, reply) => {
      const s = await auth.verifyEmail(req.params.token, metaOf(req));
      setSessionCookie(req, reply, s.token, cookies);
      return { status: "ok" as const, data: s.user };
    },
  );

  // A GET in the spec: the single-use token in the link is the proof, so no CSRF applies.
  app.get(
    "/users/verify-email-change/:token",
    { config: pub, schema: { tags: ["auth"], params: TokenParams, response: { 200: MeAnswer } } },
    async (req) => ({ status: "ok" as const, data: await auth.verifyEmailChange(req.params.token) }),
  );

  app.post(
    "/users/forgot-password",
    { config: pub, schema: { tags: ["auth"], body: EmailBody, response: { 200: DetailAnswer } } },
    async (req) => ({ status: "ok" as const, detail: await auth.forgotPassword(req.body.email, req.ip) }),
  );

  app.post(
    "/users/reset-password",
    { config: pub, schema: { tags: ["auth"], body: ResetPasswordBody, response: { 200: DetailAnswer } } },
    async (req, reply) => {
      const detail = await auth.resetPassword(req.body.token, req.body.new_password);
      clearSessionCookie(reply);
      return { status: "ok" as const, detail };
    },
  );

  app.post(
    "/users/change-password",
    {
      config: { access: "user" },
      schema: { tags: ["auth"], body: ChangePasswordBody, response: { 200: DetailAnswer } },
    },
    async (req, reply) => {
      const s = await auth.changePassword(userOf(req), req.body.current_password, req.body.new_password, metaOf(req));
      setSessionCookie(req, reply, s.token, cookies);
      return { status: "ok" as const, detail: "Password changed. Other devices have been signed out." };
    },
  );

  app.post(
    "/users/change-email",
    { config: { access: "user" }, schema: { tags: ["auth"], body: ChangeEmailBody, response: { 200: DetailAnswer } } },
    async (req) => ({ status: "ok" as const, detail: await auth.changeEmail(userOf(req), req.body.new_email) }),
  );
}

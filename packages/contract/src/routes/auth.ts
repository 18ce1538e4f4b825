import { OkBody } from "../common.ts";
import {
  ChangeEmailBody,
  ChangePasswordBody,
  CsrfAnswer,
  DetailAnswer,
  EmailBody,
  LoginBody,
  MeAnswer,
  RegisterAnswer,
  RegisterBody,
  ResetPasswordBody,
  TokenParams,
} from "../users.ts";
import { defineRoute } from "./define.ts";

const tag = "auth";

export const authApi = {
  csrfToken: defineRoute({
    method: "GET",
    path: "/users/set-csrf-token",
    tag,
    access: "public",
    response: { 200: CsrfAnswer },
  }),
  login: defineRoute({
    method: "POST",
    path: "/users/login",
    tag,
    access: "public",
    body: LoginBody,
    response: { 200: MeAnswer },
  }),
  logout: defineRoute({ method: "POST", path: "/users/logout", tag, access: "public", response: { 200: OkBody } }),
  register: defineRoute({
    method: "POST",
    path: "/users/register",
    tag,
    access: "public",
    body: RegisterBody,
    response: { 200: RegisterAnswer },
  }),
  resendVerification: defineRoute({
    method: "POST",
    path: "/users/resend-verification",
    tag,
    access: "public",
    body: EmailBody,
    response: { 200: DetailAnswer },
  }),
  verifyEmail: defineRoute({
    method: "POST",
    path: "/users/verify-email/:token",
    tag,
    access: "public",
    params: TokenParams,
    response: { 200: MeAnswer },
  }),
  // A GET in the spec: the single-use token in the link is the proof, so no CSRF applies.
  verifyEmailChange: defineRoute({
    method: "GET",
    path: "/users/verify-email-change/:token",
    tag,
    access: "public",
    params: TokenParams,
    response: { 200: MeAnswer },
  }),
  forgotPassword: defineRoute({
    method: "POST",
    path: "/users/forgot-password",
    tag,
    access: "public",
    body: EmailBody,
    response: { 200: DetailAnswer },
  }),
  resetPassword: defineRoute({
    method: "POST",
    path: "/users/reset-password",
    tag,
    access: "public",
    body: ResetPasswordBody,
    response: { 200: DetailAnswer },
  }),
  changePassword: defineRoute({
    method: "POST",
    path: "/users/change-password",
    tag,
    access: "user",
    body: ChangePasswordBody,
    response: { 200: DetailAnswer },
  }),
  changeEmail: defineRoute({
    method: "POST",
    path: "/users/change-email",
    tag,
    access: "user",
    body: ChangeEmailBody,
    response: { 200: DetailAnswer },
  }),
};

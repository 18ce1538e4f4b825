import type { RouteObject } from "react-router-dom";
import { InvitePage } from "../invites/pages/invite-page";
import { AwaitingVerificationPage } from "./pages/awaiting-verification-page";
import { ForgotPasswordPage } from "./pages/forgot-password-page";
import { LandingPage } from "./pages/landing-page";
import { LoginPage } from "./pages/login-page";
import { RegisterPage } from "./pages/register-page";
import { ResetPasswordPage } from "./pages/reset-password-page";
import { VerifyEmailChangePage } from "./pages/verify-email-change-page";
import { VerifyEmailPage } from "./pages/verify-email-page";

/** Public pages inside the authentication layout (spec 01 §2). */
export const publicRoutes: RouteObject[] = [
  { index: true, element: <LandingPage /> },
  { path: "a/login", element: <LoginPage /> },
  { path: "a/register", element: <RegisterPage /> },
  { path: "a/forgot-password", element: <ForgotPasswordPage /> },
  { path: "a/reset-password", element: <ResetPasswordPage /> },
  { path: "a/verify-email/:token", element: <VerifyEmailPage /> },
  { path: "a/verify-email-change/:token", element: <VerifyEmailChangePage /> },
  { path: "a/awaiting-verification", element: <AwaitingVerificationPage /> },
  { path: "a/invite/:token", element: <InvitePage /> },
];

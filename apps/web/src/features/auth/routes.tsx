import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** Public pages inside the authentication layout (spec 01 §2); each page loads on demand. */
export const publicRoutes: RouteObject[] = [
  { index: true, lazy: lazyPage(() => import("./pages/landing-page"), "LandingPage") },
  { path: "a/login", lazy: lazyPage(() => import("./pages/login-page"), "LoginPage") },
  { path: "a/register", lazy: lazyPage(() => import("./pages/register-page"), "RegisterPage") },
  { path: "a/forgot-password", lazy: lazyPage(() => import("./pages/forgot-password-page"), "ForgotPasswordPage") },
  { path: "a/reset-password", lazy: lazyPage(() => import("./pages/reset-password-page"), "ResetPasswordPage") },
  { path: "a/verify-email/:token", lazy: lazyPage(() => import("./pages/verify-email-page"), "VerifyEmailPage") },
  {
    path: "a/verify-email-change/:token",
    lazy: lazyPage(() => import("./pages/verify-email-change-page"), "VerifyEmailChangePage"),
  },
  {
    path: "a/awaiting-verification",
    lazy: lazyPage(() => import("./pages/awaiting-verification-page"), "AwaitingVerificationPage"),
  },
];

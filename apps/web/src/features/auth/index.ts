// The auth feature's public surface: what the router, the shell and other features may import.
export { authKeys, endSession, useLogout, useMe } from "./api";
export { AuthCard } from "./components/auth-card";
export { AuthLayout } from "./components/auth-layout";
export { RegisterForm } from "./components/register-form";
export { RequireAuth, useCurrentUser } from "./components/require-auth";
export { publicRoutes } from "./routes";

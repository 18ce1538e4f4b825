export { createAuthService, type AuthService, LOGIN_LIMIT_ACCOUNT } from "./service.ts";

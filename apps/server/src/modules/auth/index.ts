export { hashPassword, verifyPassword } from "./passwords.ts";
export { type AuthService, createAuthService, LOGIN_LIMIT_ACCOUNT, type NewSession } from "./service.ts";

export { createSsoService, type SsoService, type SsoSettings } from "./service.ts";

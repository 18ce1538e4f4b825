export { createRightsMails, type RightsMails } from "./mails.ts";
export { RIGHTS } from "./policy.ts";
export { rightsRoutes } from "./routes.ts";
export { createRightsService, type RightsService } from "./service.ts";

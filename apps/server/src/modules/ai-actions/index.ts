export { AI } from "./policy.ts";
export { type AiActionsService, createAiActionsService } from "./service.ts";

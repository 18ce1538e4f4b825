export { type AiActionsService, createAiActionsService } from "./ai-service.ts";
export { FIELD } from "./policy.ts";
export { createFieldsService, type FieldsService } from "./service.ts";

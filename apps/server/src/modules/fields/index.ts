export { FIELD } from "./policy.ts";
export { createFieldsService, type FieldsService } from "./service.ts";

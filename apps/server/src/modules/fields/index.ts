export { FIELD } from "./policy.ts";
export { createFieldsService, type FieldsService, type OptionActions } from "./service.ts";
export type { ActionValue } from "./values-repo.ts";

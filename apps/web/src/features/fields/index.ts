// The custom-fields feature's public surface.

export { useFields } from "./api";
export { FieldValueDialog } from "./field-value-dialog";
export { FieldsPanel } from "./fields-panel";

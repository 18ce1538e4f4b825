// The custom-fields feature's public surface.

export { RecognisedTextSection, RecognisedTextView } from "./ai-evidence";
export type { ValueInput } from "./api";
export { useFields } from "./api";
export { FieldEditor } from "./field-editor";
export { FieldValueDialog } from "./field-value-dialog";
export { FieldsPanel } from "./fields-panel";
export { FieldsPanelFrame } from "./fields-panel-frame";
export { FieldsSettings } from "./fields-settings";

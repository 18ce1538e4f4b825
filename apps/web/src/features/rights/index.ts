// Usage rights (issue 33): the viewer's Rights section, the bulk dialog, the expiry badge.
export { BulkRightsDialog } from "./bulk-rights-dialog";
export { RightsBadge, rightsBadgeText } from "./rights-badge";
export { RightsSection } from "./rights-section";

/** The audit log (issue 36, docs/architecture.md §4.5): rows written by triggers and by `record`. */
export { AUDIT } from "./policy.ts";
export type { AuditRecord } from "./repo.ts";
export { type AuditService, createAuditService } from "./service.ts";

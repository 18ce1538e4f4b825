import { z } from "zod";

/**
 * The audit log (issue 36): one row per change, written in the change's own transaction. Who acted
 * (`actor.kind`): a member, an API key, a member through a personal access token, a share-link visitor, an outside reviewer (review link), an
 * anonymous caller (a failed sign-in, a file-request upload) or the system (jobs). Rows are never
 * changed; they are purged after the workspace's retention.
 */
export const AUDIT_ACTOR_KINDS = [
  "member",
  "api_key",
  "personal_token",
  "visitor",
  "reviewer",
  "anonymous",
  "system",
] as const;
export const AuditActorKind = z.enum(AUDIT_ACTOR_KINDS);
export type AuditActorKind = z.infer<typeof AuditActorKind>;

export const AUDIT_RETENTION_DEFAULT_DAYS = 365;
export const AUDIT_RETENTION_MIN_DAYS = 30;
export const AUDIT_RETENTION_MAX_DAYS = 3650;
export const AUDIT_PAGE_MAX = 100;

export const AuditEvent = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({
    kind: AuditActorKind,
    id: z.string().nullable(),
    name: z.string().nullable(),
  }),
  /** `object_type.verb`: `asset.deleted`, `board.asset_added`, `member.role_changed`, `account.signed_in`… */
  action: z.string(),
  object: z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
  /** Each changed field: `{before, after}` (only `after` when created, `before` when deleted). */
  changes: z.record(z.string(), z.unknown()).nullable(),
  /** Where from: ADMINs only (an asset's or a board's history leaves them out). */
  ip: z.string().nullable().optional(),
  user_agent: z.string().nullable().optional(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

const isoDate = z.iso.datetime({ offset: true });

export const AuditQuery = z.object({
  actor_kind: AuditActorKind.optional(),
  /** A member's user id, a key's id, a link's id. */
  actor_id: z.string().trim().min(1).max(100).optional(),
  /** An exact action (`asset.deleted`) or every action of an object type (`asset`). */
  action: z
    .string()
    .trim()
    .max(80)
    .regex(/^[a-z_]+(\.[a-z_]+)?$/, "An action is a name like asset or asset.deleted")
    .optional(),
  object_id: z.string().trim().min(1).max(100).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  /** The id of the last row of the previous page: rows older than it come next. */
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, "Not a cursor from this log")
    .optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditExportQuery = AuditQuery.omit({ cursor: true, limit: true });
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;

export const AuditPage = z.object({
  data: z.array(AuditEvent),
  /** Null on the last page. */
  next_cursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPage>;

export const AuditSettings = z.object({
  retention_days: z
    .number()
    .int("Whole days")
    .min(AUDIT_RETENTION_MIN_DAYS, `Keep the log at least ${AUDIT_RETENTION_MIN_DAYS} days`)
    .max(AUDIT_RETENTION_MAX_DAYS, `Keep the log at most ${AUDIT_RETENTION_MAX_DAYS} days`),
});
export type AuditSettings = z.infer<typeof AuditSettings>;

export const HistoryQuery = z.object({
  cursor: AuditQuery.shape.cursor,
  limit: AuditQuery.shape.limit,
});

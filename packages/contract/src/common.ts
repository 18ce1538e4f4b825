import { z } from "zod";

/** Every error answer has this shape (docs/architecture.md §3–4). */
export const ERROR_CODES = [
  "BAD_REQUEST",
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "CSRF_FAILED",
  "EMAIL_NOT_VERIFIED",
  "NOT_FOUND",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "VALIDATION_FAILED",
  "UNSUPPORTED_MEDIA_TYPE",
  "RATE_LIMITED",
  "SERVICE_UNAVAILABLE",
  "STORAGE_FULL",
  "PLAN_LIMIT",
  "INTERNAL",
  /** A share link needs its password, or was given a wrong one (401). */
  "SHARE_PASSWORD_REQUIRED",
  /** A share link is disabled or expired (403). */
  "SHARE_LINK_INACTIVE",
  /** The workspace requires single sign-on and this session came from a password (403). */
  "SSO_REQUIRED",
  /** The asset's usage rights expired: only ADMINs may download it (403, issue 33). */
  "RIGHTS_EXPIRED",
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const FieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

export const ErrorBody = z.object({
  detail: z.string(),
  code: ErrorCode,
  errors: z.array(FieldError).optional(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ERROR_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CSRF_FAILED: 403,
  EMAIL_NOT_VERIFIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  STORAGE_FULL: 507,
  /** The workspace's plan does not allow it (storage, seats, largest upload): upgrading would. */
  PLAN_LIMIT: 402,
  INTERNAL: 500,
  SHARE_PASSWORD_REQUIRED: 401,
  SHARE_LINK_INACTIVE: 403,
  SSO_REQUIRED: 403,
  RIGHTS_EXPIRED: 403,
};

export const Id = z.uuid();
/** A file part of a multipart form, as the OpenAPI document describes it (the handler reads the bytes). */
export const FilePart = z.string().meta({ format: "binary", description: "The file's bytes" });

export const OkBody = z.object({ status: z.literal("ok") });
export type OkBody = z.infer<typeof OkBody>;

export const IdParams = z.object({ id: Id });

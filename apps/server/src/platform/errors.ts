import { ERROR_STATUS, type ErrorCode, type FieldError } from "@hangar/contract";

/** The one error type domain code throws; the HTTP layer maps `code` to a status (docs/architecture.md §3). */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; retryAfterSeconds?: number } = {},
  ) {
    super(detail);
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = "Not found.") => new AppError("NOT_FOUND", what);
export const forbidden = (detail = "You do not have permission to do this.") => new AppError("FORBIDDEN", detail);
export const conflict = (detail: string) => new AppError("CONFLICT", detail);
export const invalid = (detail: string, errors?: FieldError[]) => new AppError("VALIDATION_FAILED", detail, { errors });
export const unauthenticated = (detail = "Authentication required.") => new AppError("UNAUTHENTICATED", detail);

/**
 * A unique constraint lost in a race answers as its sequential check does (issue 27): two requests
 * that both passed "is it taken?" reach the index together, and the loser gets `err()` (a 409 with
 * the same text), not a 500. Only the named constraint is mapped; any other error passes through.
 */
export async function uniqueOr<T>(work: Promise<T>, constraint: string, err: () => AppError): Promise<T> {
  try {
    return await work;
  } catch (e) {
    const pg = e as { code?: string; constraint?: string };
    if (pg.code === "23505" && pg.constraint === constraint) throw err();
    throw e;
  }
}

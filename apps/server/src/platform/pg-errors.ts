/**
 * PostgreSQL errors a user action can meet in a race (pg's DatabaseError carries SQLSTATE `code` and
 * the `constraint` name). Services map them to the answer the sequential case gives.
 */
function pgError(err: unknown): { code?: string; constraint?: string } {
  return typeof err === "object" && err !== null ? (err as { code?: string; constraint?: string }) : {};
}

/** A row it points at went away meanwhile (foreign_key_violation), optionally on one constraint. */
export function isForeignKeyViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return e.code === "23503" && (constraint === undefined || e.constraint === constraint);
}

/** A JSON object's fields, or null for anything else. */
export function fieldsOf(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

export const isText = (value: unknown): value is string => typeof value === "string";

/**
 * Whether an answer read outside callApi (an XHR, an event stream, a union to tell apart) is the
 * kind expected. Development builds ask the contract's schema, as callApi does, so a drifted server
 * shows at once; production builds carry no zod (vite.config.ts) and check only what the code
 * reads next, by hand.
 */
export function answerIs(
  schema: { safeParse(value: unknown): { success: boolean } },
  value: unknown,
  byHand: (fields: Record<string, unknown>) => boolean,
): boolean {
  if (import.meta.env?.DEV) return schema.safeParse(value).success;
  const fields = fieldsOf(value);
  return !!fields && byHand(fields);
}

import { FileType, type ListingOrder, ListingOrder as ListingOrderSchema } from "@hangar/contract";
import { z } from "zod";
import { invalid } from "../../platform/errors.ts";

/**
 * The listing's cursor (issue 36, contract listing.ts): the position after a page's last asset, as
 * the order's sort key and the asset's id. Opaque to clients (base64url of a small JSON), and checked
 * in full before it reaches SQL, so a forged or damaged one answers 422, never a database error: each
 * key is what seek-repo.ts `sortKeyText` writes for its order and `keyValue` reads back exactly.
 */
export interface ListingCursor {
  order: ListingOrder;
  /** The sort key as text (null: an asset without a date taken, which sort last). */
  key: string | null;
  id: string;
}

export const CURSOR_MESSAGES = {
  invalid: "The cursor is not one this server gave: start again without it.",
  otherOrder: (order: string) =>
    `The cursor was made for order_by "${order}": send the same order_by, or start again without a cursor.`,
  withPage: "Send either a page or a cursor: a cursor names its own position.",
} as const;

/** Timestamps travel as whole microseconds since 1970 (exact; years 1139 BC to AD 5138). */
const MICROS = /^-?\d{1,17}$/;
const KEY_CHECKS: Record<string, (k: string) => boolean> = {
  date_uploaded: (k) => MICROS.test(k),
  date_taken: (k) => MICROS.test(k),
  size: (k) => /^\d{1,18}$/.test(k),
  file_type: (k) => FileType.safeParse(k).success,
  // A lower-cased name (names are at most 255 characters); PostgreSQL text holds no NUL.
  name: (k) => k.length <= 1_000 && !k.includes("\u0000"),
};

const Wire = z.object({ v: z.literal(1), o: ListingOrderSchema, k: z.string().nullable(), i: z.uuid() }).strict();

export function encodeCursor(c: ListingCursor): string {
  return Buffer.from(JSON.stringify({ v: 1, o: c.order, k: c.key, i: c.id })).toString("base64url");
}

const refuse = (message: string) => invalid(message, [{ field: "cursor", message }]);

/** The cursor a client sent back, for a listing in `order` (422 unless it is one we could have made). */
export function decodeCursor(text: string, order: ListingOrder): ListingCursor {
  let parsed: z.infer<typeof Wire>;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error("not base64url");
    parsed = Wire.parse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
  } catch {
    throw refuse(CURSOR_MESSAGES.invalid);
  }
  if (parsed.o !== order) throw refuse(CURSOR_MESSAGES.otherOrder(parsed.o));
  const field = order.replace(/^-/, "");
  const nullable = field === "date_taken";
  if (parsed.k === null ? !nullable : !KEY_CHECKS[field]?.(parsed.k)) throw refuse(CURSOR_MESSAGES.invalid);
  return { order, key: parsed.k, id: parsed.i };
}

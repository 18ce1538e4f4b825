/**
 * The one rule for text that clients send (issue 12 item 6), applied by the server to every string
 * of every request body, query and path parameter before the route's own schema:
 * - NUL and the other control characters (C0, DEL, C1) are refused with 422 naming the field:
 *   PostgreSQL refuses NUL outright, and control bytes have no place in names, searches or tags.
 * - Tab, line feed and carriage return are kept where users write them (multi-line text such as a
 *   description, and secrets, compared as sent); refused where they could split a header (a declared
 *   content type); anywhere else (names, searches) each run of them becomes one space, as a pasted
 *   name with a trailing newline is meant.
 * - Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) are removed from names and
 *   other text, so `invoice‮fdp.exe` cannot pose as a PDF in the UI; secrets are left as sent.
 */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set([
  "description",
  "text",
  "message",
  "comment",
  "body",
  "usage_notes",
]);
const STRICT_FIELDS: ReadonlySet<string> = new Set(["content_type", "mime_type"]);
const SECRET_FIELD = /(password|token|sig|etag|key)$/i;

// \p{Cc}: C0 controls (NUL included), DEL and the C1 controls.
const CONTROL_ANY = /\p{Cc}/u;
const CONTROL_BUT_WHITESPACE = /(?![\t\n\r])\p{Cc}/u;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

export const stripBidiControls = (s: string): string => s.replace(BIDI_CONTROLS, "");

/** True when `s` holds a control character refused in a field called `field`. */
export function hasForbiddenControl(s: string, field: string): boolean {
  return (STRICT_FIELDS.has(field) ? CONTROL_ANY : CONTROL_BUT_WHITESPACE).test(s);
}

/** The value as stored: line breaks folded in single-line fields, bidi controls removed. */
function normalise(s: string, field: string): string {
  if (SECRET_FIELD.test(field)) return s;
  const folded = MULTILINE_FIELDS.has(field) ? s : s.replace(/[\t\n\r]+/g, " ");
  return stripBidiControls(folded);
}

export interface TextIssue {
  /** JSON-pointer-like path of the offending value, e.g. `/or_groups/0/search`. */
  path: string;
  message: string;
}

const MESSAGE = "Control characters (such as NUL) are not allowed here";

/**
 * Walks a request part and answers it normalised (above), or the issues it has. Object keys
 * are checked too: some end up as JSON keys in PostgreSQL, which refuses NUL there as well.
 */
export function screenText(value: unknown, path = "", field = ""): { value: unknown; issues: TextIssue[] } {
  const issues: TextIssue[] = [];
  const walk = (v: unknown, p: string, name: string): unknown => {
    if (typeof v === "string") {
      if (hasForbiddenControl(v, name)) {
        issues.push({ path: p, message: MESSAGE });
        return v;
      }
      return normalise(v, name);
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, `${p}/${i}`, name));
    if (v !== null && typeof v === "object") {
      // No prototype: a "__proto__" key stays a plain key.
      const out: Record<string, unknown> = Object.create(null);
      for (const [k, item] of Object.entries(v)) {
        if (CONTROL_ANY.test(k)) issues.push({ path: `${p}/${k.replace(/\p{Cc}/gu, "?")}`, message: MESSAGE });
        out[k] = walk(item, `${p}/${k}`, k);
      }
      return out;
    }
    return v;
  };
  const out = walk(value, path, field);
  return { value: out, issues };
}

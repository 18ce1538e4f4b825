/**
 * The one rule for text that clients send (issue 12 item 6), applied by the server to every string
 * of every request body, query and path parameter before the route's own schema:
 * - NUL and the other control characters (C0, DEL, C1) are refused with 422 naming the field:
 *   PostgreSQL refuses NUL outright, and a CR/LF smuggled into a name or a content type would end up
 *   in headers and file names. Multi-line fields (below) keep tab, line feed and carriage return.
 * - Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) are removed from names and
 *   other text, so `invoice‮fdp.exe` cannot pose as a PDF in the UI; secrets and tokens are left as
 *   sent (they are compared, never shown).
 */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set(["description", "text", "message", "comment", "body"]);
const SECRET_FIELD = /(password|token|sig|etag|key)$/i;

// \p{Cc}: C0 controls (NUL included), DEL and the C1 controls.
const CONTROL_ANY = /\p{Cc}/u;
const CONTROL_MULTILINE = /(?![\t\n\r])\p{Cc}/u;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

export const stripBidiControls = (s: string): string => s.replace(BIDI_CONTROLS, "");

/** True when `s` holds a control character not allowed in a field called `field`. */
export function hasForbiddenControl(s: string, field: string): boolean {
  return (MULTILINE_FIELDS.has(field) ? CONTROL_MULTILINE : CONTROL_ANY).test(s);
}

export interface TextIssue {
  /** JSON-pointer-like path of the offending value, e.g. `/or_groups/0/search`. */
  path: string;
  message: string;
}

const MESSAGE = "Control characters (such as NUL or line breaks) are not allowed here";

/**
 * Walks a request part and answers it with bidi controls removed, or the issues it has. Object keys
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
      return SECRET_FIELD.test(name) ? v : stripBidiControls(v);
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

import { createHmac } from "node:crypto";

/**
 * Stripe's request encoding (application/x-www-form-urlencoded with bracketed keys, as the SDK
 * writes it: `items[0][price]=…`, `metadata[workspace_id]=…`, `lookup_keys[0]=…`) into objects;
 * objects whose keys are all indexes become arrays.
 */
export function decodeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split("[").map((p, i) => (i === 0 ? p : p.replace(/]$/, "")));
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      const key = part === "" ? String(Object.keys(node).length) : part;
      if (i === parts.length - 1) {
        node[key] = value;
        return;
      }
      if (!node[key]) node[key] = {};
      node = node[key] as Record<string, unknown>;
    });
  }
  return arrays(root) as Record<string, unknown>;
}

function arrays(v: unknown): unknown {
  if (!v || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  const fixed = Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => fixed[k]);
  return fixed;
}

/** The `Stripe-Signature` header exactly as Stripe computes it: HMAC-SHA256 of `${t}.${payload}`. */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** Stripe's error answer. */
export class StripeFakeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly extra: { code?: string; param?: string; decline_code?: string } = {},
  ) {
    super(message);
  }
  get body() {
    return { error: { type: this.type, message: this.message, ...this.extra } };
  }
}
export const missing = (what: string, id: string, param = "id") =>
  new StripeFakeError(404, "invalid_request_error", `No such ${what}: '${id}'`, { code: "resource_missing", param });
export const badParam = (param: string, message: string) =>
  new StripeFakeError(400, "invalid_request_error", message, { code: "parameter_invalid", param });

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

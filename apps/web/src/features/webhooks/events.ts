import type { Webhook, WebhookDelivery, WebhookEventType } from "@hangar/contract";

/** One line an event: when it is sent (docs/webhooks.md says what it carries). */
export const EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "asset.created": "A file finished uploading",
  "asset.updated": "Renamed, described, tagged or moved",
  "asset.deleted": "Moved to Recently deleted",
  "asset.version_added": "A new version finished uploading",
  "asset.processed": "Processing finished (or failed)",
  "comment.created": "A comment or reply was written",
  "comment.resolved": "A thread was resolved",
  "review.decided": "A reviewer decided on an asset",
  "review.completed": "A review reached its end",
  "share.created": "A share link was created",
  "share.viewed": "A share link was opened",
  "upload_link.received": "A file arrived through a request-files link",
  "member.added": "Someone joined the workspace",
  "member.removed": "A member left or was removed",
};

export const STATE_COLOR: Record<Webhook["state"], string> = { enabled: "green", failing: "orange", disabled: "gray" };
export const STATE_LABEL: Record<Webhook["state"], string> = {
  enabled: "Enabled",
  failing: "Failing",
  disabled: "Disabled",
};

export const DELIVERY_COLOR: Record<WebhookDelivery["status"], string> = {
  delivered: "green",
  pending: "orange",
  failed: "red",
};
export const DELIVERY_LABEL: Record<WebhookDelivery["status"], string> = {
  delivered: "Delivered",
  pending: "Retrying",
  failed: "Failed",
};

export const momentFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
export const moment = (iso: string | null) => (iso ? momentFormat.format(new Date(iso)) : "");

/** A delivery's status in a few words: "Delivered", "Retrying (3 attempts)", "Failed". */
export function deliverySummary(d: Pick<WebhookDelivery, "status" | "attempts">): string {
  const label = DELIVERY_LABEL[d.status];
  return d.status === "pending" && d.attempts > 0 ? `${label} (${d.attempts} attempts)` : label;
}

/**
 * How a receiver checks a delivery, in Node (docs/webhooks.md's `verify` block, word for word: a
 * test keeps the two the same).
 */
export const VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from "node:crypto";

/** True when \`header\` (Hangar-Signature) signs \`rawBody\` (a string or Buffer) with \`secret\`. */
export function verifyHangarSignature(secret, header, rawBody, toleranceSeconds = 300) {
  const parts = Object.fromEntries(header.split(",").map((p) => p.trim().split("=", 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(\`\${t}.\`).update(rawBody).digest();
  const given = Buffer.from(parts.v1 ?? "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
`;

/** Pretty JSON when the text is JSON, else the text as it came. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { WEBHOOK_SECRET_PREFIX } from "@hangar/contract";

/** A new signing secret: `whsec_` and 32 random bytes (base64url). */
export const newSigningSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;

/** HMAC-SHA256 of `timestamp.body` with the whole secret as the key, in hex (docs/webhooks.md). */
export const signatureOf = (secret: string, timestamp: number, body: string) =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");

/** The `Hangar-Signature` header: `t=<unix seconds>,v1=<hex>`. */
export const signatureHeader = (secret: string, timestamp: number, body: string) =>
  `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;

/**
 * The receiver's side, as docs/webhooks.md shows it: the header's timestamp within `toleranceSeconds`
 * of now and one of its `v1` signatures equal (in constant time) to ours over the raw body.
 */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureOf(secret, t, body), "hex");
  return parts
    .filter(([k]) => k === "v1")
    .some(([, v]) => {
      const got = Buffer.from(v ?? "", "hex");
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}

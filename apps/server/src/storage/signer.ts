import { createHmac } from "node:crypto";
import { safeEqual } from "../platform/tokens.ts";

/**
 * Signed, expiring URLs for our own endpoints (upload parts, media handed to browsers), so a URL
 * works without a session. A URL may name who it was issued to (`by`, covered by the signature), so
 * the route that serves it re-checks that issuer's access on every fetch instead of trusting the URL
 * for its whole lifetime. The key is shared by every process: it lives in the database (or
 * SECRET_KEY), loaded once.
 */
export function createSigner(loadSecret: () => Promise<string>) {
  let secret: Promise<string> | null = null;
  const key = () => {
    secret ??= loadSecret().catch((err) => {
      secret = null;
      throw err;
    });
    return secret;
  };
  const mac = async (method: string, path: string, exp: number, issuer: string) =>
    createHmac("sha256", await key())
      .update(`${method}\n${path}\n${exp}${issuer ? `\n${issuer}` : ""}`)
      .digest("base64url");
  return {
    /** `issuer`: an opaque token of who the URL is for (see `encodeIssuer`); "" when the path itself proves it. */
    async sign(method: string, path: string, ttlSeconds: number, issuer = ""): Promise<string> {
      return this.signUntil(method, path, Math.floor(Date.now() / 1000) + ttlSeconds, issuer);
    },
    /** The same, valid until `exp` (epoch seconds): a fixed expiry keeps the URL, and the browser's cache of it, stable. */
    async signUntil(method: string, path: string, exp: number, issuer = ""): Promise<string> {
      const by = issuer ? `&by=${encodeURIComponent(issuer)}` : "";
      return `${path}?exp=${exp}&sig=${await mac(method, path, exp, issuer)}${by}`;
    },
    /** The issuer the URL was signed for ("" if none), or null when the signature is wrong or expired. */
    async verify(
      method: string,
      path: string,
      exp: unknown,
      sig: unknown,
      issuer: unknown = "",
    ): Promise<string | null> {
      const e = Number(exp);
      if (!Number.isInteger(e) || e < Date.now() / 1000 || typeof sig !== "string" || typeof issuer !== "string") {
        return null;
      }
      return safeEqual(sig, await mac(method, path, e, issuer)) ? issuer : null;
    },
  };
}
export type Signer = ReturnType<typeof createSigner>;

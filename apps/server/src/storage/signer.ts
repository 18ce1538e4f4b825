import { createHmac } from "node:crypto";
import { safeEqual } from "../platform/tokens.ts";

/**
 * Signed, expiring URLs for our own endpoints (upload parts, media handed to browsers), so a URL
 * works without a session. The key is shared by every process: it lives in the database (or
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
  const mac = async (method: string, path: string, exp: number) =>
    createHmac("sha256", await key())
      .update(`${method}\n${path}\n${exp}`)
      .digest("base64url");
  return {
    async sign(method: string, path: string, ttlSeconds: number): Promise<string> {
      const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
      return `${path}?exp=${exp}&sig=${await mac(method, path, exp)}`;
    },
    async verify(method: string, path: string, exp: unknown, sig: unknown): Promise<boolean> {
      const e = Number(exp);
      if (!Number.isInteger(e) || e < Date.now() / 1000 || typeof sig !== "string") return false;
      return safeEqual(sig, await mac(method, path, e));
    },
  };
}
export type Signer = ReturnType<typeof createSigner>;

import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import type { UserRow } from "../../db/types.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import { hashToken, newToken } from "../../platform/tokens.ts";
import type { Signer } from "../../storage/signer.ts";
import { authMails } from "./mails.ts";
import { authRepo } from "./repo.ts";

export const MAIL_LIMIT: Limit = { max: 5, windowSeconds: 15 * 60 };
/** Mails to one address, whatever asked for them, and mails one account makes us send. */
export const MAIL_LIMIT_RECIPIENT: Limit = { max: 5, windowSeconds: 3600 };
export const MAIL_LIMIT_ACCOUNT: Limit = { max: 10, windowSeconds: 3600 };
const DEVICE_TTL_SECONDS = 365 * 86_400;
const VERIFY_TTL_MS = 48 * 3600_000;
const RESET_TTL_MS = 3600_000;

/**
 * The auth service's e-mailed tokens (verification, address change, reset) with their mail limits,
 * and the signed device cookie that lets an owner past the account-wide sign-in limit.
 */
export function createAuthMail(deps: {
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  signer: Signer;
  log: Logger;
  publicUrl: string;
}) {
  const { db, mailer, limiter, signer } = deps;

  async function mailToken(user: UserRow, purpose: "verify_email" | "change_email" | "reset_password", email: string) {
    const token = newToken();
    const ttl = purpose === "reset_password" ? RESET_TTL_MS : VERIFY_TTL_MS;
    await authRepo.createEmailToken(db, {
      hash: hashToken(token),
      userId: user.id,
      purpose,
      email,
      expiresAt: new Date(Date.now() + ttl),
    });
    const name = user.first_name || "there";
    const url = deps.publicUrl;
    if (purpose === "verify_email") await mailer.send(authMails.verify(email, name, `${url}/a/verify-email/${token}`));
    else if (purpose === "change_email")
      await mailer.send(authMails.changeEmail(email, name, `${url}/a/verify-email-change/${token}`));
    else await mailer.send(authMails.reset(email, name, `${url}/a/reset-password?token=${token}`));
  }

  /** Per-recipient (and, for a signed-in caller, per-account) mail limits; counts the attempt when it passes. */
  async function mailAllowed(recipient: string, accountId?: string): Promise<boolean> {
    return limiter.allowed(mailKeys(recipient, accountId));
  }
  const mailKeys = (recipient: string, accountId?: string) => {
    const keys: Array<[string, Limit]> = [[`mail:to:${recipient.toLowerCase()}`, MAIL_LIMIT_RECIPIENT]];
    if (accountId) keys.push([`mail:acct:${accountId}`, MAIL_LIMIT_ACCOUNT]);
    return keys;
  };
  const tooManyMails = "Too many e-mails requested. Try again later.";

  /**
   * Work whose cost would tell whether an address has an account (looking it up, making a token,
   * queueing a mail) runs after the answer is sent, so both cases answer in the same time.
   */
  function afterAnswer(what: string, work: () => Promise<void>) {
    setImmediate(() => {
      work().catch((err: unknown) => deps.log.error({ err }, `${what} failed`));
    });
  }

  const deviceCookie = async (userId: string) => {
    const id = newToken(12);
    const signed = new URL(await signer.sign("DEVICE", `/device/${userId}/${id}`, DEVICE_TTL_SECONDS), "http://x");
    return `${id}.${signed.searchParams.get("exp")}.${signed.searchParams.get("sig")}`;
  };
  const knownDevice = async (userId: string | undefined, cookie: string | undefined) => {
    const [id, exp, sig] = (cookie ?? "").split(".");
    if (!userId || !id || !exp || !sig) return false;
    return (await signer.verify("DEVICE", `/device/${userId}/${id}`, exp, sig)) !== null;
  };

  return { mailToken, mailAllowed, mailKeys, tooManyMails, afterAnswer, deviceCookie, knownDevice };
}

import { SHARE_MESSAGES } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { visitorOfLink } from "../../platform/access.ts";
import type { VisitorActor } from "../../platform/actor.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import type { Signer } from "../../storage/signer.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { type ShareLinkRow, sharesRepo } from "./repo.ts";

/** What a public share request brings: the token, the password header, the link's unlock cookie, the address. */
export interface VisitInput {
  token: string;
  password: string | undefined;
  credential: string | undefined;
  ip: string;
}

/** How long an unlock lasts before the password is asked again (the cookie and its signature). */
export const UNLOCK_TTL_SECONDS = 12 * 3600;

/**
 * Wrong passwords: per address and link, per address, and per link from everywhere (a spread
 * guess). Windows are short so the right visitor is never held out for long; a right password
 * clears its own address's counter. Unknown tokens count per address, so tokens cannot be walked.
 */
const LIMITS = {
  linkAddress: { max: 5, windowSeconds: 300 } satisfies Limit,
  address: { max: 20, windowSeconds: 900 } satisfies Limit,
  link: { max: 100, windowSeconds: 900 } satisfies Limit,
  unknownToken: { max: 30, windowSeconds: 600 } satisfies Limit,
};
const THROTTLED = "Too many attempts. Try again later.";

const passwordRequired = (detail: string = SHARE_MESSAGES.passwordRequired) =>
  new AppError("SHARE_PASSWORD_REQUIRED", detail);
const inactive = () => new AppError("SHARE_LINK_INACTIVE", SHARE_MESSAGES.expired);

/**
 * Turns a public request into a share-link visitor (DESIGN.md §9), or refuses it: 404 for an
 * unknown token (one indexed lookup, the same as any other miss), 403 for a disabled or expired
 * link, 401 while its password is missing or wrong. A right password mints a credential bound to
 * the link's password version, so a new password (or its removal) ends every unlock at once.
 */
export function createVisitorResolver(deps: { db: Db; limiter: RateLimiter; signer: Signer }) {
  const { db, limiter, signer } = deps;
  const unlockPath = (linkId: string) => `/share-unlock/${linkId}`;

  async function mintCredential(link: ShareLinkRow): Promise<string> {
    const signed = await signer.sign("UNLOCK", unlockPath(link.id), UNLOCK_TTL_SECONDS, `v${link.password_version}`);
    const q = new URLSearchParams(signed.split("?")[1]);
    return `${q.get("exp")}.${q.get("sig")}`;
  }
  async function credentialOk(link: ShareLinkRow, credential: string | undefined): Promise<boolean> {
    if (!credential) return false;
    const [exp, sig] = credential.split(".");
    return (await signer.verify("UNLOCK", unlockPath(link.id), exp, sig, `v${link.password_version}`)) !== null;
  }

  return {
    /** The visitor, and a fresh credential to store when a password was just given right. */
    async resolve(
      input: VisitInput,
    ): Promise<{ visitor: VisitorActor; link: ShareLinkRow; ip: string; credential?: string }> {
      const link = await sharesRepo.byToken(db, input.token);
      if (!link) {
        const unknownKey = `share-token:${input.ip}`;
        await limiter.check([[unknownKey, LIMITS.unknownToken]], THROTTLED);
        await limiter.hit(unknownKey, LIMITS.unknownToken);
        throw notFound("Share link not found.");
      }
      if (!link.is_active || (link.expires_at !== null && link.expires_at.getTime() <= Date.now())) throw inactive();
      const ip = input.ip;
      if (link.password_hash === null) return { visitor: visitorOfLink(link, true), link, ip };
      if (await credentialOk(link, input.credential)) return { visitor: visitorOfLink(link, true), link, ip };
      if (!input.password) throw passwordRequired();
      const keys: Array<[string, Limit]> = [
        [`share-pw:${link.id}:${input.ip}`, LIMITS.linkAddress],
        [`share-pw-ip:${input.ip}`, LIMITS.address],
        [`share-pw-link:${link.id}`, LIMITS.link],
      ];
      await limiter.check(keys, THROTTLED);
      if (!(await verifyPassword(link.password_hash, input.password))) {
        for (const [key, limit] of keys) await limiter.hit(key, limit);
        throw passwordRequired(SHARE_MESSAGES.wrongPassword);
      }
      await limiter.clear(keys[0]![0]);
      return { visitor: visitorOfLink(link, true), link, ip, credential: await mintCredential(link) };
    },
  };
}
export type VisitorResolver = ReturnType<typeof createVisitorResolver>;

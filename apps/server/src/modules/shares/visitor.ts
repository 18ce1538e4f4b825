import { SHARE_MESSAGES } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { visitorOfLink } from "../../platform/access.ts";
import type { VisitorActor } from "../../platform/actor.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import { cacheKeys, type ReadCache } from "../../platform/read-cache.ts";
import type { Signer } from "../../storage/signer.ts";
import { hashPassword, verifyPassword } from "../auth/passwords.ts";
import { type ShareLinkRow, sharesRepo } from "./repo.ts";

/** What a public share request brings: the token, the password header, the link's unlock cookie, the address. */
export interface VisitInput {
  token: string;
  password: string | undefined;
  credential: string | undefined;
  ip: string;
  /** A mutating request: the link is read from the database, not the read cache. */
  fresh?: boolean;
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
 * What an update of a gated link's expiry and password sets: a new or removed password ends every
 * unlock made with the old one (the version is bumped). Nothing when neither was sent.
 */
export async function gateChanges(body: { expires_at?: string | null; password?: string | null }) {
  const patch: { expires_at?: Date | null; password_hash?: string | null; bumpPassword?: boolean } = {};
  if (body.expires_at !== undefined) patch.expires_at = body.expires_at === null ? null : new Date(body.expires_at);
  if (body.password !== undefined) {
    patch.password_hash = body.password ? await hashPassword(body.password) : null;
    patch.bumpPassword = true;
  }
  return patch;
}

/** What a gated link needs to be judged: live or not, and its password (with the version unlocks bind to). */
export interface GatedLink {
  id: string;
  is_active: boolean;
  expires_at: Date | null;
  password_hash: string | null;
  password_version: number;
}

/**
 * The gate every public link passes (share links, file requests): 404 for an unknown token (one
 * indexed lookup, the same as any other miss, counted per address so tokens cannot be walked), 403
 * for a disabled or expired link, 401 while its password is missing or wrong. A right password mints
 * a credential bound to the link's password version, so a new password (or its removal) ends every
 * unlock at once. `scope` keeps one kind of link's credentials from opening another's.
 */
export function createLinkGate(deps: { limiter: RateLimiter; signer: Signer }, scope: string) {
  const { limiter, signer } = deps;
  const unlockPath = (linkId: string) => `/${scope}-unlock/${linkId}`;

  async function mintCredential(link: GatedLink): Promise<string> {
    const signed = await signer.sign("UNLOCK", unlockPath(link.id), UNLOCK_TTL_SECONDS, `v${link.password_version}`);
    const q = new URLSearchParams(signed.split("?")[1]);
    return `${q.get("exp")}.${q.get("sig")}`;
  }
  async function credentialOk(link: GatedLink, credential: string | undefined): Promise<boolean> {
    if (!credential) return false;
    const [exp, sig] = credential.split(".");
    return (await signer.verify("UNLOCK", unlockPath(link.id), exp, sig, `v${link.password_version}`)) !== null;
  }

  return {
    /** No link has this token: counted against the address, then 404. */
    async unknown(ip: string, detail: string): Promise<never> {
      const unknownKey = `share-token:${ip}`;
      await limiter.consume([[unknownKey, LIMITS.unknownToken]], THROTTLED);
      throw notFound(detail);
    },
    /** Lets the visit through, answering a fresh credential when a password was just given right. */
    async pass(link: GatedLink, input: Omit<VisitInput, "token">): Promise<{ credential?: string }> {
      if (!link.is_active || (link.expires_at !== null && link.expires_at.getTime() <= Date.now())) throw inactive();
      if (link.password_hash === null) return {};
      if (await credentialOk(link, input.credential)) return {};
      if (!input.password) throw passwordRequired();
      const keys: Array<[string, Limit]> = [
        [`${scope}-pw:${link.id}:${input.ip}`, LIMITS.linkAddress],
        [`share-pw-ip:${input.ip}`, LIMITS.address],
        [`${scope}-pw-link:${link.id}`, LIMITS.link],
      ];
      // Only wrong passwords count: a slot is taken on every key before the check (so parallel guesses
      // cannot all be judged) and given back when the password is right. Once a key is full, even the
      // right password waits for the window to end.
      const taken = await limiter.consume(keys, THROTTLED);
      if (!(await verifyPassword(link.password_hash, input.password)))
        throw passwordRequired(SHARE_MESSAGES.wrongPassword);
      await limiter.clear(keys[0]![0]);
      await limiter.refund(taken, [keys[1]![0], keys[2]![0]]);
      return { credential: await mintCredential(link) };
    },
  };
}

/**
 * Turns a public share request into a share-link visitor (DESIGN.md §9), or refuses it (see the gate).
 * The link is resolved once per request from the read cache, as sessions are: any change to it (or
 * to anything in its workspace) voids the cached row at once in this process and within the
 * notification's latency in others; the gate still judges expiry and the password on every request.
 */
export function createVisitorResolver(deps: { db: Db; limiter: RateLimiter; signer: Signer; cache: ReadCache }) {
  const gate = createLinkGate(deps, "share");
  const { cache } = deps;
  async function linkByToken(token: string, fresh: boolean): Promise<ShareLinkRow | undefined> {
    const key = cacheKeys.linkToken(token);
    const hit = fresh ? undefined : cache.get<ShareLinkRow>(key);
    if (hit) return hit;
    const snap = cache.snapshot();
    const link = await sharesRepo.byToken(deps.db, token);
    if (link) cache.set(key, link, [cacheKeys.workspace(link.workspace_id)], snap);
    return link;
  }
  return {
    /** The visitor, and a fresh credential to store when a password was just given right. */
    async resolve(
      input: VisitInput,
    ): Promise<{ visitor: VisitorActor; link: ShareLinkRow; ip: string; credential?: string }> {
      const fresh = input.fresh === true;
      const link = await linkByToken(input.token, fresh);
      if (!link) return gate.unknown(input.ip, "Share link not found.");
      const { credential } = await gate.pass(link, input);
      const visitor: VisitorActor = { ...visitorOfLink(link, true), ...(fresh ? { fresh } : {}) };
      return { visitor, link, ip: input.ip, ...(credential ? { credential } : {}) };
    },
  };
}
export type VisitorResolver = ReturnType<typeof createVisitorResolver>;

import { SHARE_MESSAGES } from "@hangar/contract";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import type { Signer } from "../../storage/signer.ts";
import { verifyPassword } from "../auth/index.ts";
import type { GatedLink } from "./kind.ts";

/** What a public link's request brings: the token, the password header, the link's unlock cookie, the address. */
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
 * Wrong passwords: per address and link, per address (over every link of every kind), and per link
 * from everywhere (a spread guess). Windows are short so the right visitor is never held out for long;
 * a right password clears its own address's counter. Unknown tokens count per address (over every
 * kind), so tokens cannot be walked.
 */
export const GATE_LIMITS = {
  linkAddress: { max: 5, windowSeconds: 300 } satisfies Limit,
  address: { max: 20, windowSeconds: 900 } satisfies Limit,
  link: { max: 100, windowSeconds: 900 } satisfies Limit,
  unknownToken: { max: 30, windowSeconds: 600 } satisfies Limit,
};
export const GATE_THROTTLED = "Too many attempts. Try again later.";

const passwordRequired = (detail: string = SHARE_MESSAGES.passwordRequired) =>
  new AppError("SHARE_PASSWORD_REQUIRED", detail);
/** A disabled or expired link of any kind: 403 with the one text visitors see. */
export const linkInactive = () => new AppError("SHARE_LINK_INACTIVE", SHARE_MESSAGES.expired);
/** Whether a link lets visitors through today (active and not expired); its password aside. */
export const linkIsLive = (link: Pick<GatedLink, "is_active" | "expires_at">) =>
  link.is_active && (link.expires_at === null || link.expires_at.getTime() > Date.now());

/**
 * The gate every public link passes, whatever its kind: 404 for an unknown token (one indexed lookup,
 * the same as any other miss, counted per address so tokens cannot be walked), 403 for a disabled or
 * expired link, 401 while its password is missing or wrong. A right password mints a credential bound
 * to the link's password version, so a new password (or its removal) ends every unlock at once.
 * `scope` (the kind's name) keeps one kind of link's credentials from opening another's.
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
      // One key for every kind: guessing across kinds walks no more tokens.
      await limiter.consume([[`share-token:${ip}`, GATE_LIMITS.unknownToken]], GATE_THROTTLED);
      throw notFound(detail);
    },
    /** Lets the visit through, answering a fresh credential when a password was just given right. */
    async pass(link: GatedLink, input: Omit<VisitInput, "token">): Promise<{ credential?: string }> {
      if (!linkIsLive(link)) throw linkInactive();
      if (link.password_hash === null) return {};
      if (await credentialOk(link, input.credential)) return {};
      if (!input.password) throw passwordRequired();
      const keys: Array<[string, Limit]> = [
        [`${scope}-pw:${link.id}:${input.ip}`, GATE_LIMITS.linkAddress],
        // One key for every kind: an address's guesses are counted wherever they are spread.
        [`share-pw-ip:${input.ip}`, GATE_LIMITS.address],
        [`${scope}-pw-link:${link.id}`, GATE_LIMITS.link],
      ];
      // Only wrong passwords count: a slot is taken on every key before the check (so parallel guesses
      // cannot all be judged) and given back when the password is right. Once a key is full, even the
      // right password waits for the window to end.
      const taken = await limiter.consume(keys, GATE_THROTTLED);
      if (!(await verifyPassword(link.password_hash, input.password)))
        throw passwordRequired(SHARE_MESSAGES.wrongPassword);
      await limiter.clear(keys[0]![0]);
      await limiter.refund(taken, [keys[1]![0], keys[2]![0]]);
      return { credential: await mintCredential(link) };
    },
  };
}
export type LinkGate = ReturnType<typeof createLinkGate>;

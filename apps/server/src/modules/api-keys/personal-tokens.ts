import {
  API_KEY_SHOWN_CHARS,
  type ApiScope,
  type CreatePersonalTokenBody,
  PERSONAL_TOKEN_DEFAULT_DAYS,
  PERSONAL_TOKEN_PREFIX,
  type PersonalToken,
  type PersonalTokenCreated,
} from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import type { UserRow } from "../../db/types.ts";
import { type Access, account } from "../../platform/access.ts";
import type { PersonalTokenGrant, UserActor } from "../../platform/actor.ts";
import { notFound, unauthenticated } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import { personalTokensRepo } from "./personal-tokens-repo.ts";
import { PERSONAL_TOKEN } from "./policy.ts";
import { BEARER_LIMIT, dueForTouch, expired, iso, newSecret, secretHash, secretShape } from "./secrets.ts";

export const PERSONAL_TOKEN_LIMIT: Limit = BEARER_LIMIT;
export const personalTokenLimitKey = (tokenId: string) => `personal-token:${tokenId}`;

export const PERSONAL_TOKEN_MESSAGES = {
  invalid: "This personal access token is not valid.",
  revoked: "This personal access token has been revoked.",
  passwordChanged: "This personal access token was revoked when the account's password changed.",
  expired: "This personal access token has expired.",
  rateLimited: "Too many requests with this personal access token: wait a moment and try again.",
};

type Row = Awaited<ReturnType<typeof personalTokensRepo.list>>[number];
const toToken = (r: Row): PersonalToken => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scopes: r.scopes as ApiScope[],
  created_at: r.created_at.toISOString(),
  last_used_at: iso(r.last_used_at),
  expires_at: r.expires_at.toISOString(),
  revoked_at: iso(r.revoked_at),
  revoked_reason: r.revoked_reason,
});

const DAY_MS = 86_400_000;

/**
 * Personal access tokens (issue 36, docs/architecture.md §4.4): the API keys' machinery (secrets,
 * hashing, the limiter, last use) for a user instead of a workspace. Managed only from a session (the
 * routes are `sessionOnly`: the session hook refuses tokens on them).
 */
export function createPersonalTokensService(deps: {
  db: Db;
  access: Access;
  limiter: RateLimiter;
  clock: { now(): Date };
  findUser: (id: string) => Promise<UserRow | undefined>;
}) {
  const { db, access, limiter } = deps;
  return {
    async list(actor: UserActor) {
      await access.require(actor, PERSONAL_TOKEN.manage, account(actor.userId));
      return { data: (await personalTokensRepo.list(db, actor.userId)).map(toToken) };
    },

    async create(actor: UserActor, body: CreatePersonalTokenBody): Promise<PersonalTokenCreated> {
      await access.require(actor, PERSONAL_TOKEN.manage, account(actor.userId));
      const secret = newSecret(PERSONAL_TOKEN_PREFIX);
      const row = await personalTokensRepo.insert(db, {
        user_id: actor.userId,
        name: body.name,
        prefix: secret.slice(0, API_KEY_SHOWN_CHARS),
        secret_hash: secretHash(secret),
        // No scopes: everything the user's role allows in each workspace.
        scopes: body.scopes ?? ["admin"],
        expires_at: body.expires_at
          ? new Date(body.expires_at)
          : new Date(deps.clock.now().getTime() + PERSONAL_TOKEN_DEFAULT_DAYS * DAY_MS),
      });
      return { ...toToken(row), secret };
    },

    async revoke(actor: UserActor, tokenId: string) {
      await access.require(actor, PERSONAL_TOKEN.manage, account(actor.userId));
      if (!(await personalTokensRepo.revoke(db, actor.userId, tokenId)))
        throw notFound("Personal access token not found.");
    },

    /**
     * The token a bearer secret names, if it is live (not revoked, not expired, its user still there),
     * with its user; 401 with the reason otherwise. Counts the request on the token's own rate limit
     * (429 past it) and records its use at most once a minute.
     */
    async authenticate(secret: string): Promise<{ token: PersonalTokenGrant; user: UserRow }> {
      if (!secretShape(secret, PERSONAL_TOKEN_PREFIX)) throw unauthenticated(PERSONAL_TOKEN_MESSAGES.invalid);
      const t = await personalTokensRepo.bySecretHash(db, secretHash(secret));
      if (!t) throw unauthenticated(PERSONAL_TOKEN_MESSAGES.invalid);
      if (t.revoked_at)
        throw unauthenticated(
          t.revoked_reason === "password_changed"
            ? PERSONAL_TOKEN_MESSAGES.passwordChanged
            : PERSONAL_TOKEN_MESSAGES.revoked,
        );
      if (expired(t)) throw unauthenticated(PERSONAL_TOKEN_MESSAGES.expired);
      const user = await deps.findUser(t.user_id);
      if (!user) throw unauthenticated(PERSONAL_TOKEN_MESSAGES.invalid);
      await limiter.consume([[personalTokenLimitKey(t.id), PERSONAL_TOKEN_LIMIT]], PERSONAL_TOKEN_MESSAGES.rateLimited);
      if (dueForTouch(t)) await personalTokensRepo.touch(db, t.id);
      return { token: { id: t.id, name: t.name, scopes: t.scopes as ApiScope[] }, user };
    },
  };
}
export type PersonalTokensService = ReturnType<typeof createPersonalTokensService>;

import {
  API_KEY_PREFIX,
  API_KEY_SHOWN_CHARS,
  type ApiKey,
  type ApiKeyCreated,
  type ApiScope,
  type CreateApiKeyBody,
} from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import type { UserRow } from "../../db/types.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { ApiKeyGrant, UserActor } from "../../platform/actor.ts";
import { notFound, unauthenticated } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import { API_KEY } from "./policy.ts";
import { apiKeysRepo } from "./repo.ts";
import { BEARER_LIMIT, dueForTouch, expired, iso, newSecret, secretHash, secretShape } from "./secrets.ts";

export { secretHash };

/** Requests one key may make per minute, across every process (the limiter's counters are rows). */
export const API_KEY_LIMIT: Limit = BEARER_LIMIT;
export const apiKeyLimitKey = (keyId: string) => `api-key:${keyId}`;

type Row = NonNullable<Awaited<ReturnType<typeof apiKeysRepo.get>>>;
const toApiKey = (r: Row): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scopes: r.scopes as ApiScope[],
  created_by: r.creator_id
    ? {
        id: r.creator_id,
        name: `${r.creator_first_name ?? ""} ${r.creator_last_name ?? ""}`.trim(),
        email: r.creator_email ?? "",
      }
    : null,
  created_at: r.created_at.toISOString(),
  last_used_at: iso(r.last_used_at),
  expires_at: iso(r.expires_at),
  revoked_at: iso(r.revoked_at),
});

export const API_KEY_MESSAGES = {
  invalid: "This API key is not valid.",
  revoked: "This API key has been revoked.",
  expired: "This API key has expired.",
  rateLimited: "Too many requests with this API key: wait a moment and try again.",
};

export function createApiKeysService(deps: {
  db: Db;
  access: Access;
  limiter: RateLimiter;
  findUser: (id: string) => Promise<UserRow | undefined>;
}) {
  const { db, access, limiter } = deps;
  return {
    async list(actor: UserActor, workspaceId: string) {
      await access.require(actor, API_KEY.manage, inWorkspace(workspaceId));
      return { data: (await apiKeysRepo.list(db, workspaceId)).map(toApiKey) };
    },

    async create(actor: UserActor, workspaceId: string, body: CreateApiKeyBody): Promise<ApiKeyCreated> {
      await access.require(actor, API_KEY.manage, inWorkspace(workspaceId));
      const secret = newSecret(API_KEY_PREFIX);
      const row = await apiKeysRepo.insert(db, {
        workspace_id: workspaceId,
        name: body.name,
        prefix: secret.slice(0, API_KEY_SHOWN_CHARS),
        secret_hash: secretHash(secret),
        scopes: body.scopes,
        // A key made by a key names the member who made that one.
        created_by: actor.userId,
        expires_at: body.expires_at ?? null,
      });
      return { ...toApiKey(row), secret };
    },

    async revoke(actor: UserActor, workspaceId: string, keyId: string) {
      await access.require(actor, API_KEY.manage, inWorkspace(workspaceId));
      if (!(await apiKeysRepo.revoke(db, workspaceId, keyId))) throw notFound("API key not found.");
    },

    /**
     * The key a bearer secret names, if it is live (not revoked, not expired, its workspace not
     * deleted), with the member who created it; 401 with the reason otherwise. Counts the request on
     * the key's rate limit (429 past it) and records its use at most once a minute.
     */
    async authenticate(secret: string): Promise<{ key: ApiKeyGrant; user: UserRow }> {
      if (!secretShape(secret, API_KEY_PREFIX)) throw unauthenticated(API_KEY_MESSAGES.invalid);
      const k = await apiKeysRepo.bySecretHash(db, secretHash(secret));
      if (!k?.workspace_live) throw unauthenticated(API_KEY_MESSAGES.invalid);
      if (k.revoked_at) throw unauthenticated(API_KEY_MESSAGES.revoked);
      if (expired(k)) throw unauthenticated(API_KEY_MESSAGES.expired);
      const user = await deps.findUser(k.created_by);
      if (!user) throw unauthenticated(API_KEY_MESSAGES.invalid);
      await limiter.consume([[apiKeyLimitKey(k.id), API_KEY_LIMIT]], API_KEY_MESSAGES.rateLimited);
      if (dueForTouch(k)) await apiKeysRepo.touch(db, k.id);
      return { key: { id: k.id, workspaceId: k.workspace_id, scopes: k.scopes as ApiScope[] }, user };
    },
  };
}
export type ApiKeysService = ReturnType<typeof createApiKeysService>;

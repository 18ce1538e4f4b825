import { newToken } from "../../platform/tokens.ts";
import { hashPassword } from "../auth/index.ts";
import type { GatedLink } from "./kind.ts";

/** A new link's token: 256 random bits, URL-safe (docs/architecture.md §9: at least 128). */
export const newLinkToken = () => newToken(32);

/** What a member sends of a link's gate, on creating or editing it (null: none). */
export interface GateBody {
  expires_at?: string | null;
  password?: string | null;
}

/** A new link's gate: its expiry and its password's argon2id hash. */
export async function gateOnCreate(body: GateBody): Promise<{ expires_at: Date | null; password_hash: string | null }> {
  return {
    expires_at: body.expires_at ? new Date(body.expires_at) : null,
    password_hash: body.password ? await hashPassword(body.password) : null,
  };
}

/**
 * What an update of a link's expiry and password sets: a new or removed password ends every unlock
 * made with the old one (the version is bumped, which the kind's repository applies). Nothing when
 * neither was sent.
 */
export async function gateChanges(body: GateBody) {
  const patch: { expires_at?: Date | null; password_hash?: string | null; bumpPassword?: boolean } = {};
  if (body.expires_at !== undefined) patch.expires_at = body.expires_at === null ? null : new Date(body.expires_at);
  if (body.password !== undefined) {
    patch.password_hash = body.password ? await hashPassword(body.password) : null;
    patch.bumpPassword = true;
  }
  return patch;
}

/** A link's gate as members see it: never the password or its hash, only whether there is one. */
export const gateView = (link: Pick<GatedLink, "is_active" | "expires_at" | "password_hash">) => ({
  is_active: link.is_active,
  expires_at: link.expires_at?.toISOString() ?? null,
  has_password: link.password_hash !== null,
});

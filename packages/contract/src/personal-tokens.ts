import { z } from "zod";
import { ApiScope } from "./api-keys.ts";

/**
 * Personal access tokens (issue 36): a user's own bearer secret, acting as that user in every
 * workspace they belong to, with their role there (capped by the scopes, the API keys' ones: without
 * `admin` a token is at most an EDITOR, and each route needs its scope). Always with an expiry.
 */
export const PERSONAL_TOKEN_PREFIX = "hgp_";
export const PERSONAL_TOKEN_DEFAULT_DAYS = 90;
export const PERSONAL_TOKEN_MAX_DAYS = 365;

const DAY_MS = 86_400_000;

export const PersonalTokenParams = z.object({ tokenId: z.uuid() });

export const CreatePersonalTokenBody = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Name is too long"),
  /** Left out: every scope (`admin`), i.e. whatever the user's role allows in each workspace. */
  scopes: z
    .array(ApiScope)
    .min(1, "Choose at least one scope")
    .max(6)
    .transform((s) => [...new Set(s)])
    .optional(),
  /** Left out: in 90 days. At most a year ahead. */
  expires_at: z.iso
    .datetime({ offset: true })
    .refine((v) => Date.parse(v) > Date.now(), "The expiry must be in the future")
    .refine(
      // A minute's grace: a client that asks for exactly a year is not refused for its clock.
      (v) => Date.parse(v) <= Date.now() + PERSONAL_TOKEN_MAX_DAYS * DAY_MS + 60_000,
      `A token expires within ${PERSONAL_TOKEN_MAX_DAYS} days`,
    )
    .optional(),
});
export type CreatePersonalTokenBody = z.infer<typeof CreatePersonalTokenBody>;

export const PersonalToken = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The secret's first characters (`hgp_` and a few more): enough to recognise it, never to use it. */
  prefix: z.string(),
  scopes: z.array(ApiScope),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  /** Why it stopped, when not by hand: `password_changed` (a password change or reset revokes every token). */
  revoked_reason: z.string().nullable(),
});
export type PersonalToken = z.infer<typeof PersonalToken>;

export const PersonalTokenCreated = PersonalToken.extend({ secret: z.string() });
export type PersonalTokenCreated = z.infer<typeof PersonalTokenCreated>;

export const PersonalTokenList = z.object({ data: z.array(PersonalToken) });
export type PersonalTokenList = z.infer<typeof PersonalTokenList>;

/** Routes a bearer secret (token or key) may never call: those that make secrets or change how one signs in. */
export const SESSION_ONLY_MESSAGE =
  "This needs a signed-in session: a personal access token cannot manage tokens or API keys, nor change the account's password or e-mail.";

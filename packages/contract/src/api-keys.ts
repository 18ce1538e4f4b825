import { z } from "zod";
import type { RouteSpec } from "./routes/define.ts";

/**
 * Workspace API keys (issue 36). A key carries scopes; each workspace route needs one of them
 * (`routeScope`), and `admin` stands for every scope (the key acts as an ADMIN).
 */
export const API_SCOPES = [
  "assets:read",
  "assets:write",
  "comments:write",
  "shares:write",
  "reviews:write",
  "admin",
] as const;
export const ApiScope = z.enum(API_SCOPES);
export type ApiScope = z.infer<typeof ApiScope>;

/** What a secret starts with, so scanners and people recognise it; the prefix shown is a little longer. */
export const API_KEY_PREFIX = "hgr_";
export const API_KEY_SHOWN_CHARS = 12;

export const ApiKeyParams = z.object({ id: z.uuid(), keyId: z.uuid() });

export const CreateApiKeyBody = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Name is too long"),
  scopes: z
    .array(ApiScope)
    .min(1, "Choose at least one scope")
    .max(API_SCOPES.length)
    .transform((s) => [...new Set(s)]),
  expires_at: z.iso
    .datetime({ offset: true })
    .refine((v) => Date.parse(v) > Date.now(), "The expiry must be in the future")
    .nullable()
    .optional(),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const ApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The secret's first characters (`hgr_` and a few more): enough to recognise it, never to use it. */
  prefix: z.string(),
  scopes: z.array(ApiScope),
  created_by: z.object({ id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** The answer to creating a key: the only time its secret is shown. */
export const ApiKeyCreated = ApiKey.extend({ secret: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;

export const ApiKeyList = z.object({ data: z.array(ApiKey) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

/**
 * The scope each tag's routes need: reads need `assets:read` (downloads too: a zip is a read),
 * mutations need the tag's write scope. Tags not listed (and the workspace's own settings, members,
 * billing, API keys) need `admin`, so a route added later is closed to narrow keys until it is named here.
 */
const WRITE_SCOPE: Record<string, ApiScope> = {
  assets: "assets:write",
  boards: "assets:write",
  versions: "assets:write",
  uploads: "assets:write",
  similar: "assets:write",
  people: "assets:write",
  fields: "assets:write",
  rights: "assets:write",
  "ai-actions": "assets:write",
  "recently-deleted": "assets:write",
  downloads: "assets:read",
  comments: "comments:write",
  "share links": "shares:write",
  "file requests": "shares:write",
  reviews: "reviews:write",
};
const ADMIN_READ_TAGS = new Set(["billing", "api keys", "webhooks", "audit"]);

/** The scope a key needs for a workspace route (null: not a workspace route, which no key may call). */
export function routeScope(route: Pick<RouteSpec, "access" | "method" | "tag" | "reads">): ApiScope | null {
  if (route.access !== "workspace") return null;
  const reads = route.method === "GET" || route.reads === true;
  if (reads) return ADMIN_READ_TAGS.has(route.tag) ? "admin" : "assets:read";
  return WRITE_SCOPE[route.tag] ?? "admin";
}

/** Whether a key with `scopes` may call a route needing `needed`. */
export const scopeAllows = (scopes: readonly ApiScope[], needed: ApiScope): boolean =>
  scopes.includes("admin") || scopes.includes(needed);

import { z } from "zod";
import { Id } from "./common.ts";

/**
 * Usage rights of an asset (issue 33): its licence, who made it and where it came from, notes,
 * territories, model and property releases, and when the rights expire. Once `expires_at` has
 * passed the asset leaves every share link and review link at once (payload and every derived URL),
 * and only ADMINs may download it; members still see it in the app.
 */
export const RIGHTS_LICENSES = ["owned", "licensed", "royalty_free", "editorial", "creative_commons"] as const;
export const RightsLicense = z.enum(RIGHTS_LICENSES);
export type RightsLicense = z.infer<typeof RightsLicense>;
export const LICENSE_LABELS: Record<RightsLicense, string> = {
  owned: "Owned",
  licensed: "Licensed",
  royalty_free: "Royalty-free",
  editorial: "Editorial only",
  creative_commons: "Creative Commons",
};

/** The Creative Commons licences (4.0 and CC0), only with `license: creative_commons`. */
export const CC_VARIANTS = ["cc0", "by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd"] as const;
export const CcVariant = z.enum(CC_VARIANTS);
export type CcVariant = z.infer<typeof CcVariant>;
export const CC_LABELS: Record<CcVariant, string> = {
  cc0: "CC0 (public domain)",
  by: "CC BY",
  "by-sa": "CC BY-SA",
  "by-nd": "CC BY-ND",
  "by-nc": "CC BY-NC",
  "by-nc-sa": "CC BY-NC-SA",
  "by-nc-nd": "CC BY-NC-ND",
};

export const RIGHTS_TEXT_MAX = 300;
export const RIGHTS_NOTES_MAX = 4000;
export const RIGHTS_TERRITORIES_MAX = 50;
export const RIGHTS_TERRITORY_MAX = 60;
/** Rights expiring within this many days show as `expiring` ("Expires in N days"). */
export const RIGHTS_EXPIRING_DAYS = 30;
/** The daily mail names assets expiring within this many days (and those that expired). */
export const RIGHTS_NOTICE_DAYS = 14;
export const RIGHTS_BULK_MAX = 10_000;

/**
 * A territory: an ISO 3166-1 alpha-2 code (two letters, stored upper-case: "DE") or a region in
 * words ("Worldwide", "European Union"). Free text because licences name regions no code covers.
 */
const Territory = z
  .string()
  .trim()
  .min(1, "A territory cannot be empty")
  .max(RIGHTS_TERRITORY_MAX, `A territory has at most ${RIGHTS_TERRITORY_MAX} characters`)
  .transform((t) => (/^[a-z]{2}$/i.test(t) ? t.toUpperCase() : t));

const Territories = z
  .array(Territory)
  .max(RIGHTS_TERRITORIES_MAX, `At most ${RIGHTS_TERRITORIES_MAX} territories`)
  .transform((ts) => {
    const seen = new Set<string>();
    return ts.filter((t) => !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
  });

const Line = (max: number) => z.string().trim().max(max, `At most ${max} characters`);

/** Every key of an asset's rights; each may be left out of a bulk change (kept as it is). */
const RightsShape = {
  license: RightsLicense.nullable(),
  cc_variant: CcVariant.nullable(),
  credit: Line(RIGHTS_TEXT_MAX),
  source: Line(RIGHTS_TEXT_MAX),
  usage_notes: Line(RIGHTS_NOTES_MAX),
  territories: Territories,
  model_release: z.boolean(),
  property_release: z.boolean(),
  /** An instant (ISO 8601 with offset) or a plain date (the end of that day, UTC); null: never. */
  expires_at: z.union([z.iso.datetime({ offset: true }), z.iso.date()]).nullable(),
};

export const CC_VARIANT_MESSAGE = "A Creative Commons variant goes only with the Creative Commons licence";

/** PUT …/assets/{id}/rights: the asset's rights as a whole (keys left out are cleared). */
export const RightsBody = z
  .object({
    license: RightsShape.license.default(null),
    cc_variant: RightsShape.cc_variant.default(null),
    credit: RightsShape.credit.default(""),
    source: RightsShape.source.default(""),
    usage_notes: RightsShape.usage_notes.default(""),
    territories: RightsShape.territories.default([]),
    model_release: RightsShape.model_release.default(false),
    property_release: RightsShape.property_release.default(false),
    expires_at: RightsShape.expires_at.default(null),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.cc_variant !== null && b.license !== "creative_commons")
      ctx.addIssue({ code: "custom", path: ["cc_variant"], message: CC_VARIANT_MESSAGE });
  });
export type RightsBody = z.input<typeof RightsBody>;

/** The keys a bulk change sets (the others stay as each asset has them). */
export const RightsChanges = z
  .object({
    license: RightsShape.license.optional(),
    cc_variant: RightsShape.cc_variant.optional(),
    credit: RightsShape.credit.optional(),
    source: RightsShape.source.optional(),
    usage_notes: RightsShape.usage_notes.optional(),
    territories: RightsShape.territories.optional(),
    model_release: RightsShape.model_release.optional(),
    property_release: RightsShape.property_release.optional(),
    expires_at: RightsShape.expires_at.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (Object.values(b).every((v) => v === undefined))
      ctx.addIssue({ code: "custom", path: ["license"], message: "Name at least one thing to change" });
    // A variant is set together with its licence (another licence on some assets would refuse it).
    if (b.cc_variant && b.license !== "creative_commons")
      ctx.addIssue({ code: "custom", path: ["cc_variant"], message: CC_VARIANT_MESSAGE });
  });
export type RightsChanges = z.input<typeof RightsChanges>;

/** POST …/assets/rights: one change to many assets (EDITOR+), as fields' bulk edit. */
export const BulkRightsBody = z
  .object({
    asset_ids: z.array(Id).min(1, "Name at least one asset").max(RIGHTS_BULK_MAX),
    changes: RightsChanges,
  })
  .strict();
export type BulkRightsBody = z.input<typeof BulkRightsBody>;
export const BulkRightsAnswer = z.object({ success: z.literal(true), count: z.number().int() });

export const AssetRights = z
  .object({
    license: RightsLicense.nullable(),
    cc_variant: CcVariant.nullable(),
    credit: z.string(),
    source: z.string(),
    usage_notes: z.string(),
    territories: z.array(z.string()),
    model_release: z.boolean(),
    property_release: z.boolean(),
    expires_at: z.string().nullable(),
  })
  .meta({ id: "AssetRights" });
export type AssetRights = z.infer<typeof AssetRights>;

export const RIGHTS_STATUSES = ["none", "ok", "expiring", "expired"] as const;
export const RightsStatus = z.enum(RIGHTS_STATUSES);
export type RightsStatus = z.infer<typeof RightsStatus>;

export const NO_RIGHTS: AssetRights = {
  license: null,
  cc_variant: null,
  credit: "",
  source: "",
  usage_notes: "",
  territories: [],
  model_release: false,
  property_release: false,
  expires_at: null,
};

export const RightsAnswer = z.object({ rights: AssetRights, rights_status: RightsStatus });
export type RightsAnswer = z.infer<typeof RightsAnswer>;

const DAY_MS = 86_400_000;

/** Whether rights say anything at all (else the asset has none: `none`). */
export const hasRights = (r: AssetRights) =>
  r.license !== null ||
  r.credit !== "" ||
  r.source !== "" ||
  r.usage_notes !== "" ||
  r.territories.length > 0 ||
  r.model_release ||
  r.property_release ||
  r.expires_at !== null;

/** none (nothing recorded), ok, expiring (within RIGHTS_EXPIRING_DAYS), expired (at or before now). */
export function rightsStatus(r: AssetRights, now: Date): RightsStatus {
  if (r.expires_at !== null) {
    const left = Date.parse(r.expires_at) - now.getTime();
    if (left <= 0) return "expired";
    if (left <= RIGHTS_EXPIRING_DAYS * DAY_MS) return "expiring";
    return "ok";
  }
  return hasRights(r) ? "ok" : "none";
}

/** Whole days left until `expiresAt` (1 for anything under a day), for "Expires in N days". */
export const daysLeft = (expiresAt: string, now: Date) =>
  Math.max(1, Math.ceil((Date.parse(expiresAt) - now.getTime()) / DAY_MS));

/** A plain date means the end of that day (UTC): the rights hold through it. */
export function expiryInstant(v: string | null): Date | null {
  if (v === null) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return new Date(`${v}T23:59:59.999Z`);
  return new Date(v);
}

export const formatRightsDate = (iso: string) => iso.slice(0, 10);

export const RIGHTS_MESSAGES = {
  /** A non-ADMIN member's download of an asset whose rights expired (403, RIGHTS_EXPIRED). */
  downloadRefused: (name: string, expiredAt: string) =>
    `The usage rights of ${name} expired on ${formatRightsDate(expiredAt)}: only ADMINs can download it.`,
  /** In a zip: the assets left out for that reason (a text file in the zip names them). */
  zipNoteName: "RIGHTS-EXPIRED.txt",
  saved: "Rights saved",
  saveFailed: "Failed to save the rights",
  expired: "Rights expired",
  expiresIn: (days: number) => `Expires in ${days} day${days === 1 ? "" : "s"}`,
} as const;

/**
 * Listing filters (listing.ts): `rights_expire.within_days` — rights expiring within the next N days
 * (not yet expired); `rights_expire.expired` — true: expired; false: not expired (never expiring
 * included); `no_release` — true: neither a model release nor a property release; false: at least
 * one; `rights_license.includes` — any of these licences.
 */
export const RightsExpireFilter = z
  .object({
    within_days: z.number().int().min(1).max(3650).optional(),
    expired: z.boolean().optional(),
  })
  .strict();
export const RightsLicenseFilter = z.object({ includes: z.array(RightsLicense).max(10) }).strict();

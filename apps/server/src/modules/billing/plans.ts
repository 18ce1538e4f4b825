import { readFileSync } from "node:fs";
import { PlanKey, PlanLimits } from "@hangar/contract";
import { z } from "zod";

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/**
 * A plan as data: its limits and, for paid plans, the provider's price lookup keys per interval
 * (prices themselves live at the provider, so an operator changes an amount there, not here).
 */
export const PlanDefinition = z.object({
  key: PlanKey,
  name: z.string().min(1).max(60),
  limits: PlanLimits,
  lookup_keys: z
    .object({ month: z.string().min(1).max(200).optional(), year: z.string().min(1).max(200).optional() })
    .default({}),
});
export type PlanDefinition = z.infer<typeof PlanDefinition>;

/** The file's shape: `{"free_plan": "free", "plans": [...]}`; the free plan has no prices. */
export const PlansFile = z
  .object({ free_plan: PlanKey.default("free"), plans: z.array(PlanDefinition).min(1).max(20) })
  .superRefine((f, ctx) => {
    const keys = f.plans.map((p) => p.key);
    if (new Set(keys).size !== keys.length) ctx.addIssue({ code: "custom", message: "plan keys must be unique" });
    if (!keys.includes(f.free_plan)) ctx.addIssue({ code: "custom", message: `no plan "${f.free_plan}" (free_plan)` });
    const lookups = f.plans.flatMap((p) => Object.values(p.lookup_keys));
    if (new Set(lookups).size !== lookups.length)
      ctx.addIssue({ code: "custom", message: "a price lookup key is used twice" });
  });
export type PlansFile = z.infer<typeof PlansFile>;

/** The defaults (README, "Billing"): a self-hosted install without a provider never sees them enforced. */
export const DEFAULT_PLANS: PlansFile = {
  free_plan: "free",
  plans: [
    {
      key: "free",
      name: "Free",
      limits: { storage_bytes: 2 * GiB, seats: 3, max_upload_bytes: 100 * MiB },
      lookup_keys: {},
    },
    {
      key: "team",
      name: "Team",
      limits: { storage_bytes: 200 * GiB, seats: 15, max_upload_bytes: 5 * GiB },
      lookup_keys: { month: "hangar_team_month", year: "hangar_team_year" },
    },
    {
      key: "business",
      name: "Business",
      limits: { storage_bytes: 2048 * GiB, seats: 100, max_upload_bytes: 10 * GiB },
      lookup_keys: { month: "hangar_business_month", year: "hangar_business_year" },
    },
  ],
};

export function readPlansFile(file: string): PlansFile {
  return PlansFile.parse(JSON.parse(readFileSync(file, "utf8")));
}

/** Why a plans file cannot be used (for the start-up check), or null. */
export function plansFileProblem(file: string): string | null {
  try {
    readPlansFile(file);
    return null;
  } catch (err) {
    if (err instanceof z.ZodError)
      return `invalid plans: ${err.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`;
    return `cannot read it: ${(err as Error).message}`;
  }
}

export interface PlanBook {
  free: PlanDefinition;
  all: PlanDefinition[];
  get(key: string): PlanDefinition | undefined;
  /** The plan and interval a provider price belongs to, by its lookup key. */
  byLookupKey(lookupKey: string | null | undefined): { plan: PlanDefinition; interval: "month" | "year" } | undefined;
}

export function planBook(file: PlansFile): PlanBook {
  const byKey = new Map(file.plans.map((p) => [p.key, p]));
  const free = byKey.get(file.free_plan) as PlanDefinition;
  return {
    free,
    all: file.plans,
    get: (key) => byKey.get(key),
    byLookupKey(lookupKey) {
      if (!lookupKey) return undefined;
      for (const plan of file.plans) {
        if (plan.lookup_keys.month === lookupKey) return { plan, interval: "month" };
        if (plan.lookup_keys.year === lookupKey) return { plan, interval: "year" };
      }
      return undefined;
    },
  };
}

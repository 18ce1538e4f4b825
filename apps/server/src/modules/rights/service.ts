import {
  type AssetRights,
  type BulkRightsBody,
  expiryInstant,
  hasRights,
  NO_RIGHTS,
  type RightsAnswer,
  type RightsBody,
  RightsBody as RightsBodySchema,
  RightsChanges,
  rightsStatus,
} from "@hangar/contract";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { Actor } from "../../platform/actor.ts";
import { notFound } from "../../platform/errors.ts";
import { RIGHTS } from "./policy.ts";
import { type RightsValues, rightsRepo, toRights } from "./repo.ts";

/** Rows per statement of a bulk change (each row is a dozen parameters; PostgreSQL takes 65,535). */
const BULK_CHUNK = 2000;

const by = (actor: Actor) => (actor.kind === "user" ? actor.userId : null);

const valuesOf = (r: z.output<typeof RightsBodySchema>): RightsValues => ({
  license: r.license,
  cc_variant: r.cc_variant,
  credit: r.credit,
  source: r.source,
  usage_notes: r.usage_notes,
  territories: r.territories,
  model_release: r.model_release,
  property_release: r.property_release,
  expire_at: expiryInstant(r.expires_at),
});

/**
 * Usage rights of assets (issue 33): read by every member, set by ADMIN and EDITOR, one asset as a
 * whole or some keys of many. What expiry does to visitors and downloads is decided where they read
 * (platform/access.ts, the listing, downloads), by comparing the expiry with now.
 */
export function createRightsService(deps: { db: Db; access: Access; clock: { now(): Date } }) {
  const { db, access } = deps;
  const answer = (rights: AssetRights | null): RightsAnswer => {
    const r = rights ?? NO_RIGHTS;
    return { rights: r, rights_status: rightsStatus(r, deps.clock.now()) };
  };
  async function requireAsset(actor: Actor, workspaceId: string, assetId: string, act = RIGHTS.view) {
    await access.require(actor, act, { kind: "asset", workspaceId, assetId });
    if ((await rightsRepo.liveIds(db, workspaceId, [assetId])).length === 0) throw notFound("Asset not found.");
  }

  return {
    async get(actor: Actor, workspaceId: string, assetId: string): Promise<RightsAnswer> {
      await requireAsset(actor, workspaceId, assetId);
      return answer(toRights(await rightsRepo.get(db, assetId)));
    },
    async put(actor: Actor, workspaceId: string, assetId: string, body: RightsBody): Promise<RightsAnswer> {
      await requireAsset(actor, workspaceId, assetId, RIGHTS.edit);
      const parsed = RightsBodySchema.parse(body);
      const values = valuesOf(parsed);
      const empty = !hasRights({ ...parsed, expires_at: parsed.expires_at });
      await rightsRepo.put(db, workspaceId, assetId, empty ? null : values, by(actor));
      return answer(toRights(await rightsRepo.get(db, assetId)));
    },
    /** Some keys of many assets (EDITOR+); an asset not live in the workspace answers 404 for all. */
    async bulk(actor: Actor, workspaceId: string, body: BulkRightsBody): Promise<{ success: true; count: number }> {
      await access.require(actor, RIGHTS.edit, inWorkspace(workspaceId));
      const ids = [...new Set(body.asset_ids)];
      const live = await rightsRepo.liveIds(db, workspaceId, ids);
      if (live.length !== ids.length) throw notFound("Asset not found.");
      const c = RightsChanges.parse(body.changes);
      const set: Partial<RightsValues> = {};
      for (const k of [
        "license",
        "cc_variant",
        "credit",
        "source",
        "usage_notes",
        "territories",
        "model_release",
        "property_release",
      ] as const)
        if (c[k] !== undefined) (set as Record<string, unknown>)[k] = c[k];
      if (c.expires_at !== undefined) set.expire_at = expiryInstant(c.expires_at);
      const count = await db.transaction().execute(async (tx) => {
        let n = 0;
        for (let i = 0; i < ids.length; i += BULK_CHUNK)
          n += await rightsRepo.bulk(tx, workspaceId, ids.slice(i, i + BULK_CHUNK), set, by(actor));
        return n;
      });
      return { success: true, count };
    },
  };
}
export type RightsService = ReturnType<typeof createRightsService>;

import {
  type Asset,
  DUPLICATE_DISTANCE_DEFAULT,
  type DuplicateKeepBody,
  type DuplicatesPage,
  type DuplicatesQuery,
  SIMILAR_DISTANCE_MAX,
  SIMILAR_LIMIT,
  SIMILAR_MESSAGES,
  type SimilarAnswer,
} from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { invalid, notFound } from "../../platform/errors.ts";
import { duplicatesRepo } from "./duplicates-repo.ts";
import { components, measured } from "./groups.ts";
import { SIMILAR } from "./policy.ts";
import { similarRepo } from "./repo.ts";

type Paging = Required<{ [K in keyof DuplicatesQuery]: number }>;

/**
 * Similar pictures and duplicates (issue 32; contract similar.ts). The hashes are the pipeline's
 * (saveHashes); the groups' actions go through the features that own them: the assets' delete
 * (Recently deleted) and the versions' stack.
 */
export function createSimilarService(deps: {
  db: Db;
  access: Access;
  /** Live assets as the member sees them, in the order asked. */
  assets: (actor: UserActor, workspaceId: string, ids: string[]) => Promise<Asset[]>;
  /** Moves assets to Recently deleted (the assets feature's delete). */
  remove: (actor: UserActor, workspaceId: string, ids: string[]) => Promise<unknown>;
  /** Stacks assets as versions of one (the versions feature's stack). */
  stack: (actor: UserActor, workspaceId: string, assetId: string, ids: string[]) => Promise<unknown>;
}) {
  const { db, access } = deps;

  /** Every id sent must be a live asset of the workspace (422 naming the field otherwise). */
  async function requireLive(workspaceId: string, ids: string[], field: string) {
    const sizes = await similarRepo.sizes(db, workspaceId, ids);
    if (ids.some((id) => !sizes.has(id)))
      throw invalid(SIMILAR_MESSAGES.unknownAsset, [{ field, message: SIMILAR_MESSAGES.unknownAsset }]);
  }
  function keepInGroup(body: DuplicateKeepBody) {
    if (!body.asset_ids.includes(body.keep_id))
      throw invalid(SIMILAR_MESSAGES.keepOutside, [{ field: "keep_id", message: SIMILAR_MESSAGES.keepOutside }]);
    return [...new Set(body.asset_ids.filter((id) => id !== body.keep_id))];
  }
  const distanceOf = async (workspaceId: string, on: Db = db) =>
    (await similarRepo.maxDistance(on, workspaceId)) ?? DUPLICATE_DISTANCE_DEFAULT;

  /**
   * The workspace's near groups, built again from its pairs (connected components within its distance)
   * after something they depend on changed (migration 20261206-3205). Two requests at once: the second
   * waits for the first's changes to be taken, finds none left, and reads what the first wrote.
   */
  async function rebuildNear(workspaceId: string) {
    await db.transaction().execute(async (tx) => {
      if (!(await duplicatesRepo.takeNearChanges(tx, workspaceId))) return;
      const pairs = await duplicatesRepo.nearPairs(tx, workspaceId, await distanceOf(workspaceId, tx));
      const sizes = new Map<string, number>();
      const shas = new Map<string, string | null>();
      for (const p of pairs) {
        sizes.set(p.a, p.size_a).set(p.b, p.size_b);
        shas.set(p.a, p.sha_a).set(p.b, p.sha_b);
      }
      const groups = components(pairs).map((c) => {
        const sha = shas.get(c.ids[0]!) ?? null;
        const twin = sha !== null && c.ids.every((id) => shas.get(id) === sha) ? sha : null;
        return { ...measured("near", c.ids, sizes, c.distance), twin_sha256: twin };
      });
      await duplicatesRepo.replaceNear(tx, workspaceId, groups);
    });
  }

  return {
    /** Saves a version's hashes (the pipeline, the backfill). */
    saveHashes: (workspaceId: string, versionId: string, hashes: bigint[]) =>
      similarRepo.saveHashes(db, workspaceId, versionId, hashes, SIMILAR_DISTANCE_MAX),

    /** Whether the asset is live in the workspace (the listing's similar_to). */
    liveAsset: (workspaceId: string, assetId: string) => similarRepo.liveAsset(db, workspaceId, assetId),

    async similar(actor: UserActor, workspaceId: string, assetId: string, maxDistance: number): Promise<SimilarAnswer> {
      await access.require(actor, SIMILAR.view, { kind: "asset", workspaceId, assetId });
      if (!(await similarRepo.liveAsset(db, workspaceId, assetId))) throw notFound("Asset not found.");
      const rows = await similarRepo.similar(db, workspaceId, assetId, maxDistance, SIMILAR_LIMIT);
      const assets = new Map(
        (
          await deps.assets(
            actor,
            workspaceId,
            rows.map((r) => r.asset_id),
          )
        ).map((a) => [a.id, a]),
      );
      const data = rows.flatMap((r) => {
        const asset = assets.get(r.asset_id);
        return asset ? [{ asset, distance: r.distance }] : [];
      });
      return { data, max_distance: maxDistance };
    },

    async duplicates(actor: UserActor, workspaceId: string, q: Paging): Promise<DuplicatesPage> {
      await access.require(actor, SIMILAR.view, inWorkspace(workspaceId));
      if (await duplicatesRepo.nearChanged(db, workspaceId)) await rebuildNear(workspaceId);
      const start = (q.page - 1) * q.page_size;
      const [maxDistance, page, total] = await Promise.all([
        distanceOf(workspaceId),
        duplicatesRepo.page(db, workspaceId, q.page_size, start),
        duplicatesRepo.count(db, workspaceId),
      ]);
      const assets = new Map(
        (
          await deps.assets(
            actor,
            workspaceId,
            page.flatMap((g) => g.asset_ids),
          )
        ).map((a) => [a.id, a]),
      );
      return {
        data: page.map((g) => ({ ...g, assets: g.asset_ids.flatMap((id) => assets.get(id) ?? []) })),
        page: q.page,
        page_size: q.page_size,
        total_count: total,
        has_more: start + q.page_size < total,
        max_distance: maxDistance,
      };
    },

    /** Keeps one asset of a group; the others go to Recently deleted. */
    async keep(actor: UserActor, workspaceId: string, body: DuplicateKeepBody) {
      await access.require(actor, SIMILAR.resolve, inWorkspace(workspaceId));
      const others = keepInGroup(body);
      await requireLive(workspaceId, body.asset_ids, "asset_ids");
      await deps.remove(actor, workspaceId, others);
      return { status: "ok" as const, count: others.length };
    },

    /** Stacks the group's other assets as versions of the one kept. */
    async stack(actor: UserActor, workspaceId: string, body: DuplicateKeepBody) {
      await access.require(actor, SIMILAR.resolve, inWorkspace(workspaceId));
      const others = keepInGroup(body);
      await requireLive(workspaceId, body.asset_ids, "asset_ids");
      await deps.stack(actor, workspaceId, body.keep_id, others);
      return { status: "ok" as const, count: others.length };
    },

    /** Remembers the group as it is: hidden until an asset outside it joins. */
    async dismiss(actor: UserActor, workspaceId: string, assetIds: string[]) {
      await access.require(actor, SIMILAR.resolve, inWorkspace(workspaceId));
      const ids = [...new Set(assetIds)].sort();
      await requireLive(workspaceId, ids, "asset_ids");
      await similarRepo.dismiss(db, workspaceId, ids, actor.userId);
      return { status: "ok" as const, count: ids.length };
    },

    async setMaxDistance(actor: UserActor, workspaceId: string, maxDistance: number) {
      await access.require(actor, SIMILAR.settings, inWorkspace(workspaceId));
      await similarRepo.setMaxDistance(db, workspaceId, maxDistance);
      return { max_distance: maxDistance };
    },

    /**
     * The backfill (jobs/hash-assets.ts): current versions rendered before hashing existed, in
     * batches by version id; `hash` computes a version's hashes from its renditions. Answers how many.
     */
    async backfill(hash: (row: Awaited<ReturnType<typeof similarRepo.unhashed>>[number]) => Promise<bigint[]>) {
      let after = "00000000-0000-0000-0000-000000000000";
      let done = 0;
      for (;;) {
        const batch = await similarRepo.unhashed(db, after, 100);
        if (!batch.length) return done;
        for (const row of batch) {
          const hashes = await hash(row).catch(() => []);
          if (hashes.length)
            await similarRepo.saveHashes(db, row.workspace_id, row.version_id, hashes, SIMILAR_DISTANCE_MAX);
          done += hashes.length ? 1 : 0;
        }
        after = batch[batch.length - 1]!.version_id;
      }
    },
  };
}
export type SimilarService = ReturnType<typeof createSimilarService>;

import type { ColumnType, Generated } from "kysely";

/** Perceptual hashes (migration 20261202-3201): one row per picture of a version. */
export interface AssetHashesTable {
  version_id: string;
  frame: number;
  workspace_id: string;
  /** The 64-bit pHash, signed (bigint arrives as a string from pg). */
  hash: ColumnType<string, string | bigint, string | bigint>;
  b0: Generated<number>;
  b1: Generated<number>;
  b2: Generated<number>;
  b3: Generated<number>;
}

/** A dismissed duplicates group: its members when it was dismissed. */
export interface DuplicateDismissalsTable {
  id: Generated<string>;
  workspace_id: string;
  asset_ids: string[];
  dismissed_by: string | null;
  dismissed_at: Generated<Date>;
}

/** A workspace's near-duplicate distance (absent: the contract's default). */
export interface DuplicateSettingsTable {
  workspace_id: string;
  max_distance: number;
  updated_at: Generated<Date>;
}

/** Near pairs of versions' main pictures within SIMILAR_DISTANCE_MAX (version_a < version_b). */
export interface AssetHashPairsTable {
  workspace_id: string;
  version_a: string;
  version_b: string;
  distance: number;
}

/** A duplicates group as listed (migration 20261206-3205): exact ones kept by triggers, near ones rebuilt. */
export interface DuplicateGroupsTable {
  workspace_id: string;
  kind: "exact" | "near";
  /** Exact groups: the bytes' checksum (their key). */
  sha256: string | null;
  asset_ids: string[];
  first_id: string;
  count: number;
  size: ColumnType<string, string | number, string | number>;
  reclaimable: ColumnType<string, string | number, string | number>;
  distance: number;
  /** Near groups of byte-identical members: their checksum. */
  twin_sha256: string | null;
}

/** A transaction that changed what a workspace's near groups are built from (consumed by the rebuild). */
export interface DuplicateNearChangesTable {
  workspace_id: string;
  xid: string;
}

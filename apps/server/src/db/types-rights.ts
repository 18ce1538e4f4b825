import type { ColumnType, Generated } from "kysely";

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Usage rights of an asset (migration 20261207-3302): `id` is the asset's. */
export interface AssetRightsTable {
  id: string;
  workspace_id: string;
  license: string | null;
  cc_variant: string | null;
  credit: Generated<string>;
  source: Generated<string>;
  usage_notes: Generated<string>;
  territories: Generated<string[]>;
  model_release: Generated<boolean>;
  property_release: Generated<boolean>;
  expire_at: NullableTimestamp;
  updated_by: string | null;
  updated_at: Generated<Date>;
}

/** Which rights mail went for an asset's expiry date (once each). */
export interface RightsNoticesTable {
  asset_id: string;
  expire_at: Date;
  kind: "expiring" | "expired";
  sent_at: Generated<Date>;
}

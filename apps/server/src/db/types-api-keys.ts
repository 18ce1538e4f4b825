import type { ColumnType, Generated } from "kysely";

/** Workspace API keys (migration 20261203-3601): the secret only as its SHA-256. */
export interface ApiKeysTable {
  id: Generated<string>;
  workspace_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  scopes: string[];
  created_by: string;
  created_at: Generated<Date>;
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

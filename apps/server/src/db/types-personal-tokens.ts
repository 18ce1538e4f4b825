import type { ColumnType, Generated } from "kysely";

/** Personal access tokens (migration 20261207-3605): a user's, the secret only as its SHA-256. */
export interface PersonalTokensTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  scopes: string[];
  created_at: Generated<Date>;
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  revoked_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

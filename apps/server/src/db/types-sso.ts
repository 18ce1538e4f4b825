import type { ColumnType, Generated } from "kysely";

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A single sign-on in flight (migration 20261207-3604): taken once by its callback. */
export interface SsoLoginsTable {
  /** SHA-256 of the random value in the starting browser's HttpOnly cookie. */
  id: string;
  state: string;
  nonce: string;
  code_verifier: string;
  next_path: Generated<string>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

import type { User } from "@hangar/contract";
import type { UserRow } from "../../db/types.ts";

export function avatarUrl(row: Pick<UserRow, "id" | "avatar_updated_at">): string | null {
  return row.avatar_updated_at ? `/api/v1/users/${row.id}/avatar?v=${row.avatar_updated_at.getTime()}` : null;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    avatar_url: avatarUrl(row),
    email_verified: row.email_verified_at !== null,
    pending_email: row.pending_email,
    created_at: row.created_at.toISOString(),
  };
}

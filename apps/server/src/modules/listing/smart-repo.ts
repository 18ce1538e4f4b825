import type { AssetListBody } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import { type ListingScope, listingWhere } from "./filters-repo.ts";

/**
 * Smart boards' statements besides the listing's own pages (issue 33; docs/architecture.md §4.6): the
 * saved filter compiled by the very function the listing uses (listingWhere), so a zip, a visitor's
 * URL check and the board page agree on what a smart board holds.
 */
export const smartRepo = {
  /** Up to `limit` matches of a saved filter, by name then id (a zip's order). */
  async matchIds(db: Db, filter: AssetListBody, scope: ListingScope, limit: number): Promise<string[]> {
    const r = await sql<{ id: string }>`
      SELECT a.id FROM assets a WHERE ${listingWhere(filter, scope)}
      ORDER BY lower(a.name), a.id LIMIT ${limit}`.execute(db);
    return r.rows.map((x) => x.id);
  },
  /** Whether the asset matches any of the saved filters: one row checked against each, one statement. */
  async matchesAny(db: Db, filters: AssetListBody[], scope: ListingScope, assetId: string): Promise<boolean> {
    if (filters.length === 0) return false;
    const any = sql.join(
      filters.map((f) => sql`(${listingWhere(f, scope)})`),
      sql` OR `,
    );
    const r = await sql<{ hit: boolean }>`
      SELECT EXISTS (SELECT 1 FROM assets a WHERE a.id = ${assetId} AND (${any})) AS hit`.execute(db);
    return r.rows[0]?.hit ?? false;
  },
};

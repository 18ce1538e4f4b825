import type { AssetListBody } from "@hangar/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";

type Cond = RawBuilder<SqlBool>;
const DAY_MS = 86_400_000;

/**
 * Usage rights (issue 33) over `assets a`, each a hashed subplan on asset_rights' partial indexes
 * (workspace, expiry / licence / released), read once per statement, never a probe per asset.
 */
export function rightsConds(f: AssetListBody, workspaceId: string, now: Date, liveOnly = false): Cond[] {
  const out: Cond[] = liveOnly ? [rightsLive(now)] : [];
  const ids = (where: RawBuilder<unknown>) =>
    sql`SELECT r.id FROM asset_rights r WHERE r.workspace_id = ${workspaceId} AND ${where}`;
  const exp = f.rights_expire;
  if (exp?.within_days !== undefined) {
    const until = new Date(now.getTime() + exp.within_days * DAY_MS);
    out.push(sql<SqlBool>`a.id IN (${ids(sql`r.expire_at > ${now} AND r.expire_at <= ${until}`)})`);
  }
  if (exp?.expired === true) out.push(sql<SqlBool>`a.id IN (${ids(sql`r.expire_at <= ${now}`)})`);
  if (exp?.expired === false) out.push(sql<SqlBool>`a.id NOT IN (${ids(sql`r.expire_at <= ${now}`)})`);
  const released = ids(sql`(r.model_release OR r.property_release)`);
  if (f.no_release === true) out.push(sql<SqlBool>`a.id NOT IN (${released})`);
  if (f.no_release === false) out.push(sql<SqlBool>`a.id IN (${released})`);
  const licenses = f.rights_license?.includes;
  if (licenses?.length)
    out.push(sql<SqlBool>`a.id IN (${ids(sql`r.license = ANY(${[...new Set(licenses)]}::text[])`)})`);
  return out;
}

/** What a public link's visitor may list: not an asset whose rights expired by `now`. */
export const rightsLive = (now: Date): Cond =>
  sql<SqlBool>`NOT EXISTS (SELECT 1 FROM asset_rights r WHERE r.id = a.id AND r.expire_at <= ${now})`;

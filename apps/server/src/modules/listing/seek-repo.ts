import type { AssetListBody, ListingOrder } from "@hangar/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import { type PageIds, plainPageIds } from "../assets/index.ts";
import type { ListingCursor } from "./cursor.ts";
import {
  LISTABLE,
  type ListingScope,
  listingFilters,
  listingOrder,
  orderBy,
  orderKey,
  uploadRange,
} from "./filters-repo.ts";

/** The page's rows and where they start. */
export const pageWindow = (body: AssetListBody) => ({
  limit: body.page_size + 1, // one more than asked: has_more without a count
  offset: (body.page - 1) * body.page_size,
});

/**
 * A page that continues from a waypoint (waypoints.ts): the matches after asset `after.id` in the
 * listing's order, skipping `offset` of them. The order index is read from that asset on (a row
 * comparison on its key and id, the index's own columns) and each asset's filter checked as it comes,
 * fenced as in walkIds so that a rough estimate cannot turn it into a sort of every match.
 *
 * date_taken puts assets without one last, in either direction, and a row comparison never matches a
 * null key. So after an asset with no date the rest are the undated after it by id (one range of the
 * index's null end); after a dated one, the dated after it (the row comparison) and then every undated
 * asset. Those two ranges are read one after the other: the first up to the page's end, the second
 * only for what the first lacked (its LIMIT is 0 otherwise, and reads nothing). A MergeAppend of the
 * two would need a first match from each before its first row: the null end was read whole (400,000
 * assets, 7.5 s) to find no IMAGE there.
 */
export function seekPageIds(
  body: AssetListBody,
  scope: ListingScope,
  after: { id: string; nullKey?: boolean },
  offset: number,
): PageIds {
  const { limit } = pageWindow(body);
  const key = orderKey(body.order_by);
  const desc = body.order_by.startsWith("-");
  const cmp = sql.raw(desc ? "<" : ">");
  const nullable = body.order_by.endsWith("date_taken");
  const beyond = sql<SqlBool>`(${key}, a.id) ${cmp} (SELECT ${key}, a.id FROM assets a WHERE a.id = ${after.id})`;
  const undated = sql<SqlBool>`${key} IS NULL`;
  const order = listingOrder(body.order_by);
  const filters = listingFilters(body, scope);
  // The matches in one range of the order index, in order, each filter checked as it comes.
  const range = (cond: RawBuilder<SqlBool>, cols: RawBuilder<unknown>) => {
    const scan = sql.join(
      [sql<SqlBool>`a.workspace_id = ${scope.workspaceId}`, LISTABLE, ...uploadRange(body), cond],
      sql` AND `,
    );
    if (filters.length === 0) return sql`SELECT ${cols} FROM assets a WHERE ${scan} ORDER BY ${order}`;
    return sql`SELECT ${cols} FROM (SELECT * FROM assets a WHERE ${scan} ORDER BY ${order} OFFSET 0) a
      WHERE ${sql.join(filters, sql` AND `)} ORDER BY ${order}`;
  };
  const id = sql`a.id`;
  if (!nullable || after.nullKey) {
    const from = nullable ? sql<SqlBool>`${undated} AND a.id ${cmp} ${after.id}` : beyond;
    return plainPageIds(sql<{ id: string }>`${range(from, id)} LIMIT ${limit} OFFSET ${offset}`);
  }
  const want = offset + limit;
  const seen = sql`(SELECT count(*) FROM p)`;
  return {
    with: sql`WITH p AS MATERIALIZED (${range(beyond, sql`a.id, ${key} AS k`)} LIMIT ${want})`,
    ids: sql`ARRAY(SELECT p.id FROM p ORDER BY ${orderBy(body.order_by, sql`p.k`, sql`p.id`)} OFFSET ${offset})
      || ARRAY(${range(undated, id)} LIMIT ${want} - greatest(${seen}, ${offset}) OFFSET greatest(0, ${offset} - ${seen}))`,
  };
}

/**
 * The order's sort key as text, exactly (cursor.ts carries it): timestamps as whole microseconds
 * since 1970 (a Date would drop the microseconds and make the seek land before the asset), sizes as
 * digits, names and types as they are. `keyValue` reads it back.
 */
export function sortKeyText(order: ListingOrder): RawBuilder<unknown> {
  const key = orderKey(order);
  const field = order.replace(/^-/, "");
  if (field === "date_uploaded" || field === "date_taken")
    return sql`(extract(epoch FROM ${key}) * 1000000)::bigint::text`;
  return field === "size" ? sql`${key}::text` : key;
}

function keyValue(order: ListingOrder, k: string): RawBuilder<unknown> {
  const field = order.replace(/^-/, "");
  if (field === "date_uploaded" || field === "date_taken")
    return sql`(timestamptz 'epoch' + (${k}::bigint / 1000000) * interval '1 second' + (${k}::bigint % 1000000) * interval '1 microsecond')`;
  return field === "size" ? sql`${k}::bigint` : sql`${k}::text`;
}

/**
 * What follows a cursor in the listing's order, as keyset conditions on the order's index (a row
 * comparison on its key and id): one range, or for date_taken after a dated asset two, read one after
 * the other, the dated ones after it and then every undated one (they sort last either way, and a row
 * comparison never matches a null key; see seekPageIds).
 */
export function cursorRanges(cursor: ListingCursor): RawBuilder<SqlBool>[] {
  const { order } = cursor;
  const key = orderKey(order);
  const cmp = sql.raw(order.startsWith("-") ? "<" : ">");
  if (cursor.key === null) return [sql<SqlBool>`${key} IS NULL AND a.id ${cmp} ${cursor.id}::uuid`];
  const after = sql<SqlBool>`(${key}, a.id) ${cmp} (${keyValue(order, cursor.key)}, ${cursor.id}::uuid)`;
  return order.endsWith("date_taken") ? [after, sql<SqlBool>`${key} IS NULL`] : [after];
}

import type { AssetListBody } from "@hangar/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";

type Cond = RawBuilder<SqlBool>;
type Entry = NonNullable<AssetListBody["custom_fields"]>[number];

const likeTerm = (t: string) => t.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The asset has a value of the field meeting `cond` (on `v`). */
const value = (fieldId: string, cond: Cond) =>
  sql<SqlBool>`EXISTS (SELECT 1 FROM field_values v WHERE v.asset_id = a.id AND v.field_id = ${fieldId} AND ${cond})`;
/** The value holds one of the options (single select: is one; multi select: contains one). */
const anyOption = (ids: string[]) =>
  sql<SqlBool>`(v.option_id = ANY(${ids}::uuid[]) OR v.multi_option_ids && ${ids}::uuid[])`;
const nonEmpty = sql<SqlBool>`(v.option_id IS NOT NULL OR cardinality(v.multi_option_ids) > 0
  OR coalesce(v.text_value, '') <> '' OR v.date_value IS NOT NULL)`;

/**
 * The `custom_fields` filter (contract listing.ts CustomFieldsFilter) as conditions over `assets a`:
 * each entry's parts ANDed, entries ANDed. Every value is a bound parameter.
 */
export function customFieldsConds(entries: Entry[] | undefined): Cond[] {
  const out: Cond[] = [];
  for (const e of entries ?? []) {
    // `includes`/`excludes` are spec 01's words for `any_of`/`none_of`: the same lists.
    const anyOf = [...new Set([...(e.any_of ?? []), ...(e.includes ?? [])])];
    const noneOf = [...new Set([...(e.none_of ?? []), ...(e.excludes ?? [])])];
    if (anyOf.length) out.push(value(e.field_id, anyOption(anyOf)));
    if (e.all_of?.length) out.push(value(e.field_id, sql<SqlBool>`v.multi_option_ids @> ${e.all_of}::uuid[]`));
    if (noneOf.length) out.push(sql<SqlBool>`NOT ${value(e.field_id, anyOption(noneOf))}`);
    if (e.text_contains)
      out.push(value(e.field_id, sql<SqlBool>`v.text_value ILIKE ${`%${likeTerm(e.text_contains)}%`}`));
    if (e.date_from || e.date_to)
      out.push(
        value(
          e.field_id,
          sql<SqlBool>`v.date_value BETWEEN coalesce(${e.date_from ?? null}::date, '-infinity') AND coalesce(${e.date_to ?? null}::date, 'infinity')`,
        ),
      );
    if (e.is_empty === true) out.push(sql<SqlBool>`NOT ${value(e.field_id, nonEmpty)}`);
    if (e.is_empty === false) out.push(value(e.field_id, nonEmpty));
  }
  return out;
}

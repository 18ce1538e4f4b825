import type { AssetListInput } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../apps/server/src/db/db.ts";

/**
 * bench/listing's custom-field cases (issue 16): two fields on the seeded million, values written in
 * one statement each with the value triggers off (search text is not what is measured here).
 * Status: "Legal hold" on 100 assets (selective), "Approved" on half (broad), "Draft" on a tenth;
 * Notes: text on 1% ("needs a retouch N"), empty elsewhere.
 */
export async function fieldCases(db: Db, ws: string): Promise<Array<[string, AssetListInput]>> {
  let status = await fieldId(db, ws, "Status");
  if (!status) {
    await sql`ALTER TABLE field_values DISABLE TRIGGER USER`.execute(db);
    try {
      const s = await db
        .insertInto("custom_fields")
        .values({ workspace_id: ws, title: "Status", field_type: "SINGLE_SELECT", position: 0 })
        .returning("id")
        .executeTakeFirstOrThrow();
      const notes = await db
        .insertInto("custom_fields")
        .values({ workspace_id: ws, title: "Notes", field_type: "TEXT", position: 1 })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("field_options")
        .values(
          ["Legal hold", "Approved", "Draft"].map((label, position) => ({
            field_id: s.id,
            label,
            color: "#1971c2",
            position,
          })),
        )
        .execute();
      await sql`
        INSERT INTO field_values (workspace_id, field_id, asset_id, option_id)
        SELECT ${ws}::uuid, ${s.id}::uuid, a.id, o.id
        FROM (SELECT id, row_number() OVER (ORDER BY date_uploaded) - 1 AS i FROM assets WHERE workspace_id = ${ws}) a
        JOIN field_options o ON o.field_id = ${s.id} AND o.label = CASE
          WHEN a.i % 10000 = 11 THEN 'Legal hold' WHEN a.i % 2 = 0 THEN 'Approved' WHEN a.i % 5 = 0 THEN 'Draft' END`.execute(
        db,
      );
      await sql`
        INSERT INTO field_values (workspace_id, field_id, asset_id, text_value)
        SELECT ${ws}::uuid, ${notes.id}::uuid, a.id, 'needs a retouch ' || a.i
        FROM (SELECT id, row_number() OVER (ORDER BY date_uploaded) - 1 AS i FROM assets WHERE workspace_id = ${ws}) a
        WHERE a.i % 100 = 3`.execute(db);
      await sql`VACUUM ANALYZE field_values`.execute(db);
      status = s.id;
    } finally {
      await sql`ALTER TABLE field_values ENABLE TRIGGER USER`.execute(db);
    }
  }
  const notes = (await fieldId(db, ws, "Notes"))!;
  const option = async (label: string) =>
    (
      await db
        .selectFrom("field_options")
        .select("id")
        .where("field_id", "=", status)
        .where("label", "=", label)
        .executeTakeFirstOrThrow()
    ).id;
  const hold = await option("Legal hold");
  const approved = await option("Approved");
  return [
    ["field option, selective (100)", { custom_fields: [{ field_id: status, any_of: [hold] }] }],
    ["field option, broad (50 %)", { custom_fields: [{ field_id: status, any_of: [approved] }] }],
    ["field text contains (1 %)", { custom_fields: [{ field_id: notes, text_contains: "retouch" }] }],
    ["field is empty (99 %)", { custom_fields: [{ field_id: notes, is_empty: true }] }],
    [
      "or: hold | retouch",
      {
        or_groups: [
          { custom_fields: [{ field_id: status, any_of: [hold] }] },
          { custom_fields: [{ field_id: notes, text_contains: "retouch 1234" }] },
        ],
      },
    ],
  ];
}

async function fieldId(db: Db, ws: string, title: string): Promise<string | null> {
  const r = await db
    .selectFrom("custom_fields")
    .select("id")
    .where("workspace_id", "=", ws)
    .where("title", "=", title)
    .executeTakeFirst();
  return r?.id ?? null;
}

import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { CustomFieldsTable } from "../../db/types.ts";

export type FieldType = CustomFieldsTable["field_type"];
export interface FieldRow {
  id: string;
  workspace_id: string;
  title: string;
  field_type: FieldType;
  position: number;
  value_count: number;
  options: Array<{ id: string; label: string; color: string; position: number }>;
}

export interface ValueRow {
  id: string;
  field_id: string;
  text_value: string | null;
  date_value: string | null;
  option: { id: string; label: string; color: string } | null;
  multi: Array<{ id: string; label: string; color: string }>;
  set_by_user_id: string | null;
  set_by_user_name: string | null;
  set_by_name: string | null;
  set_by_action_id: string | null;
  set_at: Date;
}

const fieldsSql = (where: RawBuilder<SqlBool>) => sql<FieldRow>`
  SELECT f.id, f.workspace_id, f.title, f.field_type, f.position,
    (SELECT count(*) FROM field_values v WHERE v.field_id = f.id)::int AS value_count,
    coalesce((SELECT json_agg(json_build_object('id', o.id, 'label', o.label, 'color', o.color, 'position', o.position)
               ORDER BY o.position, o.label) FROM field_options o WHERE o.field_id = f.id), '[]') AS options
  FROM custom_fields f WHERE ${where} ORDER BY f.position, f.created_at`;

/** A value holds something (an option, options, text, a date). */
export const NON_EMPTY = sql<SqlBool>`(v.option_id IS NOT NULL OR cardinality(v.multi_option_ids) > 0
  OR coalesce(v.text_value, '') <> '' OR v.date_value IS NOT NULL)`;

export const fieldsRepo = {
  async list(db: Db, workspaceId: string) {
    return (await fieldsSql(sql`f.workspace_id = ${workspaceId}`).execute(db)).rows;
  },
  async get(db: Db, workspaceId: string, fieldId: string): Promise<FieldRow | null> {
    return (await fieldsSql(sql`f.workspace_id = ${workspaceId} AND f.id = ${fieldId}`).execute(db)).rows[0] ?? null;
  },
  /** A field of the workspace, without its options. */
  find(db: Db, workspaceId: string, fieldId: string) {
    return db
      .selectFrom("custom_fields")
      .select(["id", "field_type"])
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", fieldId)
      .executeTakeFirst();
  },
  async titleTaken(db: Db, workspaceId: string, title: string, except?: string) {
    const r = await sql<{ id: string }>`SELECT id FROM custom_fields
      WHERE workspace_id = ${workspaceId} AND lower(title) = lower(${title}) AND id <> ${except ?? "00000000-0000-0000-0000-000000000000"}`.execute(
      db,
    );
    return r.rows.length > 0;
  },
  async create(
    db: Db,
    workspaceId: string,
    title: string,
    type: FieldType,
    options: Array<{ label: string; color: string }>,
  ) {
    return db.transaction().execute(async (tx) => {
      const { next } = (
        await sql<{
          next: number;
        }>`SELECT coalesce(max(position) + 1, 0)::int AS next FROM custom_fields WHERE workspace_id = ${workspaceId}`.execute(
          tx,
        )
      ).rows[0]!;
      const f = await tx
        .insertInto("custom_fields")
        .values({ workspace_id: workspaceId, title, field_type: type, position: next })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (options.length)
        await tx
          .insertInto("field_options")
          .values(options.map((o, i) => ({ field_id: f.id, label: o.label, color: o.color, position: i })))
          .execute();
      return f.id;
    });
  },
  async reorder(db: Db, workspaceId: string, ids: string[]) {
    await sql`UPDATE custom_fields f SET position = o.n - 1
      FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS o(id, n) WHERE f.id = o.id AND f.workspace_id = ${workspaceId}`.execute(
      db,
    );
  },
  async rename(db: Db, fieldId: string, title: string) {
    await db.updateTable("custom_fields").set({ title }).where("id", "=", fieldId).execute();
  },
  /**
   * Changes the type (the rule is in the contract's fields.ts): select ↔ select keeps options, anything
   * becoming TEXT keeps its display text, the rest is cleared. Answers how many values were cleared.
   */
  async changeType(db: Db, fieldId: string, from: FieldType, to: FieldType): Promise<number> {
    return db.transaction().execute(async (tx) => {
      let cleared = 0;
      if (from === "SINGLE_SELECT" && to === "MULTI_SELECT") {
        await sql`UPDATE field_values SET multi_option_ids = ARRAY[option_id], option_id = NULL
          WHERE field_id = ${fieldId} AND option_id IS NOT NULL`.execute(tx);
      } else if (from === "MULTI_SELECT" && to === "SINGLE_SELECT") {
        await sql`UPDATE field_values v SET option_id = (SELECT o.id FROM field_options o
            WHERE o.id = ANY(v.multi_option_ids) ORDER BY o.position, o.label LIMIT 1), multi_option_ids = '{}'
          WHERE field_id = ${fieldId}`.execute(tx);
      } else if (to === "TEXT") {
        await sql`UPDATE field_values v SET text_value = CASE
            WHEN v.date_value IS NOT NULL THEN v.date_value::text
            WHEN v.option_id IS NOT NULL THEN (SELECT o.label FROM field_options o WHERE o.id = v.option_id)
            ELSE (SELECT string_agg(o.label, ', ' ORDER BY o.position, o.label) FROM field_options o WHERE o.id = ANY(v.multi_option_ids))
          END, option_id = NULL, multi_option_ids = '{}', date_value = NULL
          WHERE field_id = ${fieldId}`.execute(tx);
      } else if (from !== to) {
        const r = await sql`DELETE FROM field_values WHERE field_id = ${fieldId}`.execute(tx);
        cleared = Number(r.numAffectedRows ?? 0);
      }
      await tx.updateTable("custom_fields").set({ field_type: to }).where("id", "=", fieldId).execute();
      return cleared;
    });
  },
  async remove(db: Db, fieldId: string): Promise<number> {
    return db.transaction().execute(async (tx) => {
      const r = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM field_values WHERE field_id = ${fieldId}`.execute(tx);
      await tx.deleteFrom("custom_fields").where("id", "=", fieldId).execute();
      return r.rows[0]?.n ?? 0;
    });
  },
  async option(db: Db, fieldId: string, optId: string) {
    return db
      .selectFrom("field_options")
      .selectAll()
      .where("field_id", "=", fieldId)
      .where("id", "=", optId)
      .executeTakeFirst();
  },
  async labelTaken(db: Db, fieldId: string, label: string, except?: string) {
    const r = await sql<{
      id: string;
    }>`SELECT id FROM field_options WHERE field_id = ${fieldId} AND lower(label) = lower(${label})
      AND id <> ${except ?? "00000000-0000-0000-0000-000000000000"}`.execute(db);
    return r.rows.length > 0;
  },
  async createOption(db: Db, fieldId: string, o: { label: string; color: string; position?: number }) {
    const position =
      o.position ??
      (
        await sql<{
          next: number;
        }>`SELECT coalesce(max(position) + 1, 0)::int AS next FROM field_options WHERE field_id = ${fieldId}`.execute(
          db,
        )
      ).rows[0]!.next;
    return db
      .insertInto("field_options")
      .values({ field_id: fieldId, label: o.label, color: o.color, position })
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** Numbers a field's options 0…n-1 in the order given (one statement). */
  async reorderOptions(db: Db, fieldId: string, ids: string[]) {
    await sql`UPDATE field_options o SET position = n.n - 1
      FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS n(id, n) WHERE o.id = n.id AND o.field_id = ${fieldId}`.execute(
      db,
    );
  },
  async updateOption(db: Db, optId: string, patch: { label?: string; color?: string; position?: number }) {
    return db.updateTable("field_options").set(patch).where("id", "=", optId).returningAll().executeTakeFirstOrThrow();
  },
  /** Deletes an option and clears it from every value; answers how many values changed. */
  async removeOption(db: Db, fieldId: string, optId: string): Promise<number> {
    return db.transaction().execute(async (tx) => {
      const single = await sql`UPDATE field_values SET option_id = NULL, set_at = now()
        WHERE field_id = ${fieldId} AND option_id = ${optId}`.execute(tx);
      const multi =
        await sql`UPDATE field_values SET multi_option_ids = array_remove(multi_option_ids, ${optId}::uuid), set_at = now()
        WHERE field_id = ${fieldId} AND multi_option_ids @> ARRAY[${optId}::uuid]`.execute(tx);
      await tx.deleteFrom("field_options").where("id", "=", optId).execute();
      return Number(single.numAffectedRows ?? 0) + Number(multi.numAffectedRows ?? 0);
    });
  },
};

import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { ValueRow } from "./repo.ts";

/** What a value is set to: one of the four kinds (null option: Unassigned; empty: cleared). */
export type NewValue =
  | { kind: "option"; optionId: string | null }
  | { kind: "multi"; optionIds: string[] }
  | { kind: "text"; text: string }
  | { kind: "date"; date: string | null };

/** What the AI actions chose for one field of one asset (null: nothing matched). */
export interface ActionValue {
  fieldId: string;
  assetId: string;
  want: { optionId: string | null; optionIds: string[] } | null;
  /** The action the value is credited to (the most confident match). */
  actionId: string | null;
}

/** Who sets it. */
export interface Setter {
  userId: string | null;
  name: string | null;
  actionId: string | null;
}

export const valuesRepo = {
  /** The values of one asset or board, in field order. */
  async of(db: Db, workspaceId: string, target: { assetId?: string; boardId?: string }): Promise<ValueRow[]> {
    const where = target.assetId ? sql`v.asset_id = ${target.assetId}` : sql`v.board_id = ${target.boardId}`;
    const r = await sql<ValueRow>`
      SELECT v.id, v.field_id, v.text_value, v.date_value::text AS date_value,
        (SELECT json_build_object('id', o.id, 'label', o.label, 'color', o.color) FROM field_options o WHERE o.id = v.option_id) AS option,
        coalesce((SELECT json_agg(json_build_object('id', o.id, 'label', o.label, 'color', o.color) ORDER BY o.position, o.label)
                  FROM field_options o WHERE o.id = ANY(v.multi_option_ids)), '[]') AS multi,
        v.set_by_user_id, nullif(trim(u.first_name || ' ' || u.last_name), '') AS set_by_user_name, v.set_by_name,
        v.set_by_action_id, v.set_at
      FROM field_values v JOIN custom_fields f ON f.id = v.field_id
      LEFT JOIN users u ON u.id = v.set_by_user_id
      WHERE v.workspace_id = ${workspaceId} AND ${where}
      ORDER BY f.position, f.created_at`.execute(db);
    return r.rows;
  },
  /** How many of `ids` are live assets of the workspace. */
  async liveAssets(db: Db, workspaceId: string, ids: string[]): Promise<number> {
    const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM assets
      WHERE id = ANY(${ids}::uuid[]) AND workspace_id = ${workspaceId} AND deleted_at IS NULL`.execute(db);
    return r.rows[0]?.n ?? 0;
  },
  async liveBoards(db: Db, workspaceId: string, ids: string[]): Promise<number> {
    const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM boards
      WHERE id = ANY(${ids}::uuid[]) AND workspace_id = ${workspaceId} AND deleted_at IS NULL`.execute(db);
    return r.rows[0]?.n ?? 0;
  },
  /** How many of `ids` are options of the field. */
  async optionsOf(db: Db, fieldId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM field_options
      WHERE field_id = ${fieldId} AND id = ANY(${ids}::uuid[])`.execute(db);
    return r.rows[0]?.n ?? 0;
  },
  /**
   * Sets the value on every asset (or board) at once: one INSERT … ON CONFLICT for all of them, so
   * 10,000 assets are one statement. Answers how many rows it wrote.
   */
  async set(
    db: Db,
    workspaceId: string,
    fieldId: string,
    target: { column: "asset_id" | "board_id"; ids: string[] },
    v: NewValue,
    by: Setter,
  ): Promise<number> {
    const option = v.kind === "option" ? v.optionId : null;
    const multi = v.kind === "multi" ? v.optionIds : [];
    const text = v.kind === "text" ? v.text : null;
    const date = v.kind === "date" ? v.date : null;
    const col = sql.raw(target.column);
    const index = sql.raw(target.column === "asset_id" ? "asset_id IS NOT NULL" : "board_id IS NOT NULL");
    const r = await sql`
      INSERT INTO field_values (workspace_id, field_id, ${col}, option_id, multi_option_ids, text_value, date_value,
        set_by_user_id, set_by_name, set_by_action_id, set_at)
      SELECT ${workspaceId}::uuid, ${fieldId}::uuid, t.id, ${option}::uuid, ${multi}::uuid[], ${text}, ${date}::date,
        ${by.userId}::uuid, ${by.name}, ${by.actionId}::uuid, now()
      FROM unnest(${target.ids}::uuid[]) AS t(id)
      ON CONFLICT (field_id, ${col}) WHERE ${index} DO UPDATE SET
        option_id = excluded.option_id, multi_option_ids = excluded.multi_option_ids, text_value = excluded.text_value,
        date_value = excluded.date_value, set_by_user_id = excluded.set_by_user_id, set_by_name = excluded.set_by_name,
        set_by_action_id = excluded.set_by_action_id, set_at = excluded.set_at`.execute(db);
    return Number(r.numAffectedRows ?? 0);
  },
  /**
   * AI actions' values (issue 16), many (field, asset) pairs in one transaction: each is written only
   * when the asset has no value, an empty one nobody set, or one an action set; never over a person's
   * (or visitor's) value, even a cleared one. `want` null clears an action-owned value. Answers, in
   * order, whether each value now is the action's and whether it changed. The rows are locked in one
   * order (field, asset), so two batches never wait on each other in a circle, and a person's value
   * inserted meanwhile wins (ON CONFLICT DO NOTHING).
   */
  async applyByActions(
    db: Db,
    workspaceId: string,
    values: ActionValue[],
  ): Promise<Array<{ written: boolean; changed: boolean }>> {
    if (!values.length) return [];
    const key = (fieldId: string, assetId: string | null) => `${fieldId} ${assetId}`;
    return db.transaction().execute(async (tx) => {
      const rows = await tx
        .selectFrom("field_values")
        .select([
          "id",
          "field_id",
          "asset_id",
          "option_id",
          "multi_option_ids",
          "text_value",
          "date_value",
          "set_by_user_id",
          "set_by_name",
          "set_by_action_id",
        ])
        .where("field_id", "in", [...new Set(values.map((v) => v.fieldId))])
        .where("asset_id", "in", [...new Set(values.map((v) => v.assetId))])
        .orderBy("field_id")
        .orderBy("asset_id")
        .forUpdate()
        .execute();
      const current = new Map(rows.map((r) => [key(r.field_id, r.asset_id), r]));
      const out = values.map(() => ({ written: false, changed: false }));
      const inserts: number[] = [];
      const deletes: number[] = [];
      for (const [i, v] of values.entries()) {
        const cur = current.get(key(v.fieldId, v.assetId));
        const empty =
          !cur || (!cur.option_id && cur.multi_option_ids.length === 0 && !cur.text_value && cur.date_value === null);
        const ours = !cur || !!cur.set_by_action_id || (empty && !cur.set_by_user_id && cur.set_by_name === null);
        if (!ours) continue;
        if (!v.want) {
          if (cur?.set_by_action_id && !empty) deletes.push(i);
          continue;
        }
        if (!cur) {
          inserts.push(i);
          continue;
        }
        const multi = [...v.want.optionIds].sort();
        const same = cur.option_id === v.want.optionId && [...cur.multi_option_ids].sort().join() === multi.join();
        out[i] = { written: true, changed: !same };
        if (same && cur.set_by_action_id === v.actionId) continue;
        const want = v.want;
        await tx
          .updateTable("field_values")
          .set((eb) => ({
            option_id: want.optionId,
            multi_option_ids: multi,
            text_value: null,
            date_value: null,
            set_by_user_id: null,
            set_by_name: null,
            set_by_action_id: v.actionId,
            ...(same ? {} : { set_at: eb.fn<Date>("now") }),
          }))
          .where("id", "=", cur.id)
          .execute();
      }
      if (deletes.length) {
        await tx
          .deleteFrom("field_values")
          .where(
            "id",
            "in",
            deletes.map((i) => current.get(key(values[i]!.fieldId, values[i]!.assetId))!.id),
          )
          .execute();
        for (const i of deletes) out[i] = { written: false, changed: true };
      }
      if (inserts.length) {
        const byKey = (i: number) => key(values[i]!.fieldId, values[i]!.assetId);
        inserts.sort((a, b) => (byKey(a) < byKey(b) ? -1 : byKey(a) > byKey(b) ? 1 : 0));
        const added = await tx
          .insertInto("field_values")
          .values(
            inserts.map((i) => ({
              workspace_id: workspaceId,
              field_id: values[i]!.fieldId,
              asset_id: values[i]!.assetId,
              option_id: values[i]!.want!.optionId,
              multi_option_ids: [...values[i]!.want!.optionIds].sort(),
              set_by_action_id: values[i]!.actionId,
            })),
          )
          .onConflict((oc) => oc.columns(["field_id", "asset_id"]).where("asset_id", "is not", null).doNothing())
          .returning(["field_id", "asset_id"])
          .execute();
        const written = new Set(added.map((r) => key(r.field_id, r.asset_id)));
        for (const i of inserts) if (written.has(byKey(i))) out[i] = { written: true, changed: true };
      }
      return out;
    });
  },
};

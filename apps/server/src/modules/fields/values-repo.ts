import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { ValueRow } from "./repo.ts";

/** What a value is set to: one of the four kinds (null option: Unassigned; empty: cleared). */
export type NewValue =
  | { kind: "option"; optionId: string | null }
  | { kind: "multi"; optionIds: string[] }
  | { kind: "text"; text: string }
  | { kind: "date"; date: string | null };

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
   * An AI action's value for one asset (issue 16): written only when the asset has no value, an empty
   * one nobody set, or one an action set; never over a person's (or visitor's) value, even a cleared one.
   * `want` null clears an action-owned value. Answers whether the value now is the action's and whether
   * it changed. The row is locked, and a person's value inserted meanwhile wins (ON CONFLICT DO NOTHING).
   */
  async applyByAction(
    db: Db,
    workspaceId: string,
    fieldId: string,
    assetId: string,
    want: { optionId: string | null; optionIds: string[] } | null,
    actionId: string | null,
  ): Promise<{ written: boolean; changed: boolean }> {
    return db.transaction().execute(async (tx) => {
      const cur = (
        await sql<{
          id: string;
          option_id: string | null;
          multi_option_ids: string[];
          text_value: string | null;
          date_value: string | null;
          set_by_user_id: string | null;
          set_by_name: string | null;
          set_by_action_id: string | null;
        }>`SELECT id, option_id, multi_option_ids, text_value, date_value::text, set_by_user_id, set_by_name, set_by_action_id
          FROM field_values WHERE field_id = ${fieldId} AND asset_id = ${assetId} FOR UPDATE`.execute(tx)
      ).rows[0];
      const empty = !cur || (!cur.option_id && cur.multi_option_ids.length === 0 && !cur.text_value && !cur.date_value);
      const ours = !cur || !!cur.set_by_action_id || (empty && !cur.set_by_user_id && cur.set_by_name === null);
      if (!ours) return { written: false, changed: false };
      if (!want) {
        if (!cur?.set_by_action_id || empty) return { written: false, changed: false };
        await sql`DELETE FROM field_values WHERE id = ${cur.id}`.execute(tx);
        return { written: false, changed: true };
      }
      const multi = [...want.optionIds].sort();
      if (!cur) {
        const r =
          await sql`INSERT INTO field_values (workspace_id, field_id, asset_id, option_id, multi_option_ids, set_by_action_id)
          VALUES (${workspaceId}, ${fieldId}, ${assetId}, ${want.optionId}, ${multi}::uuid[], ${actionId})
          ON CONFLICT (field_id, asset_id) WHERE asset_id IS NOT NULL DO NOTHING`.execute(tx);
        const written = Number(r.numAffectedRows ?? 0) > 0;
        return { written, changed: written };
      }
      const same = cur.option_id === want.optionId && [...cur.multi_option_ids].sort().join() === multi.join();
      if (same && cur.set_by_action_id === actionId) return { written: true, changed: false };
      await sql`UPDATE field_values SET option_id = ${want.optionId}, multi_option_ids = ${multi}::uuid[], text_value = NULL,
          date_value = NULL, set_by_user_id = NULL, set_by_name = NULL, set_by_action_id = ${actionId},
          set_at = CASE WHEN ${same} THEN set_at ELSE now() END
        WHERE id = ${cur.id}`.execute(tx);
      return { written: true, changed: !same };
    });
  },
};

import type { AiActionKind, AiEvidence } from "@hangar/contract";
import type { Selectable } from "kysely";
import type { Db } from "../../db/db.ts";
import type { AiActionRunsTable, AiActionsTable } from "../../db/types-ai.ts";

export type ActionRow = Selectable<AiActionsTable>;
export type RunRow = Selectable<AiActionRunsTable>;

/** An action with what evaluation needs of its field and option. */
export type LiveAction = ActionRow & {
  field_type: "SINGLE_SELECT" | "MULTI_SELECT";
  option_position: number;
  option_label: string;
};

/** One action's outcome on one asset, as kept. */
export interface ResultInput {
  assetId: string;
  actionId: string;
  matched: boolean;
  confidence: number;
  evidence: AiEvidence;
  setValue: boolean;
}

/** Rows per INSERT: a statement takes at most 65,535 parameters (7 a result). */
const ROWS_PER_INSERT = 5_000;

/** SQL of AI actions, their results and runs (what the pipeline saw is processing's: its repo.ts). */
export const aiRepo = {
  create(
    db: Db,
    a: { workspace_id: string; field_id: string; option_id: string; kind: AiActionKind; config: unknown },
  ) {
    return db
      .insertInto("ai_actions")
      .values({ ...a, config: JSON.stringify(a.config) })
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  get(db: Db, optionId: string, actionId: string): Promise<ActionRow | undefined> {
    return db
      .selectFrom("ai_actions")
      .selectAll()
      .where("id", "=", actionId)
      .where("option_id", "=", optionId)
      .executeTakeFirst();
  },
  update(db: Db, actionId: string, kind: AiActionKind, config: unknown): Promise<ActionRow> {
    return db
      .updateTable("ai_actions")
      .set({ kind, config: JSON.stringify(config) })
      .where("id", "=", actionId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async remove(db: Db, actionId: string) {
    await db.deleteFrom("ai_actions").where("id", "=", actionId).execute();
  },
  /** The actions on these fields' options, oldest first (the fields' answers show them). */
  ofFields(db: Db, workspaceId: string, fieldIds: string[]): Promise<ActionRow[]> {
    if (!fieldIds.length) return Promise.resolve([]);
    return db
      .selectFrom("ai_actions")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("field_id", "in", fieldIds)
      .orderBy("created_at")
      .execute();
  },
  /** Every action of the workspace's select fields (one field if given), in field and option order. */
  live(db: Db, workspaceId: string, fieldId?: string | null): Promise<LiveAction[]> {
    let q = db
      .selectFrom("ai_actions as a")
      .innerJoin("custom_fields as f", "f.id", "a.field_id")
      .innerJoin("field_options as o", "o.id", "a.option_id")
      .selectAll("a")
      .select(["f.field_type", "o.position as option_position", "o.label as option_label"])
      .where("a.workspace_id", "=", workspaceId)
      .where("f.field_type", "in", ["SINGLE_SELECT", "MULTI_SELECT"]);
    if (fieldId) q = q.where("a.field_id", "=", fieldId);
    return q
      .orderBy("f.position")
      .orderBy("o.position")
      .orderBy("a.created_at")
      .$narrowType<{ field_type: LiveAction["field_type"] }>()
      .execute();
  },
  /**
   * The names and board paths ("Clients/Acme/Logos" for every board an asset is in) of these live
   * assets of the workspace, in one statement: one recursive walk up the boards for all of them.
   */
  subjects(db: Db, workspaceId: string, assetIds: string[]) {
    return db
      .withRecursive("up(asset_id, parent_id, path)", (qc) =>
        qc
          .selectFrom("board_assets as ba")
          .innerJoin("boards as b", "b.id", "ba.board_id")
          .select(["ba.asset_id", "b.parent_id", "b.name as path"])
          .where("ba.asset_id", "in", assetIds)
          .where("b.deleted_at", "is", null)
          .unionAll(
            qc
              .selectFrom("up")
              .innerJoin("boards as p", "p.id", "up.parent_id")
              .select((eb) => [
                "up.asset_id",
                "p.parent_id",
                eb(eb("p.name", "||", "/"), "||", eb.ref("up.path")).as("path"),
              ]),
          ),
      )
      .selectFrom("assets as a")
      .select((eb) => [
        "a.id",
        "a.name",
        eb
          .selectFrom("up")
          .select((e) => e.fn.agg<string[]>("array_agg", ["up.path"]).as("paths"))
          .whereRef("up.asset_id", "=", "a.id")
          .where("up.parent_id", "is", null)
          .as("board_paths"),
      ])
      .where("a.id", "in", assetIds)
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .execute();
  },
  async liveAsset(db: Db, workspaceId: string, assetId: string): Promise<boolean> {
    const r = await db
      .selectFrom("assets")
      .select("id")
      .where("id", "=", assetId)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return !!r;
  },
  /** Replaces the assets' results for these actions. */
  async saveResults(db: Db, workspaceId: string, results: ResultInput[]) {
    for (let i = 0; i < results.length; i += ROWS_PER_INSERT)
      await db
        .insertInto("ai_action_results")
        .values(
          results.slice(i, i + ROWS_PER_INSERT).map((r) => ({
            workspace_id: workspaceId,
            asset_id: r.assetId,
            action_id: r.actionId,
            matched: r.matched,
            confidence: r.confidence,
            evidence: JSON.stringify(r.evidence),
            set_value: r.setValue,
          })),
        )
        .onConflict((oc) =>
          oc.columns(["asset_id", "action_id"]).doUpdateSet((eb) => ({
            matched: eb.ref("excluded.matched"),
            confidence: eb.ref("excluded.confidence"),
            evidence: eb.ref("excluded.evidence"),
            set_value: eb.ref("excluded.set_value"),
            evaluated_at: eb.fn<Date>("now"),
          })),
        )
        .execute();
  },
  results(db: Db, workspaceId: string, assetId: string) {
    return db
      .selectFrom("ai_action_results as r")
      .innerJoin("ai_actions as a", "a.id", "r.action_id")
      .innerJoin("field_options as o", "o.id", "a.option_id")
      .innerJoin("custom_fields as f", "f.id", "a.field_id")
      .select([
        "r.id",
        "r.action_id",
        "a.field_id",
        "a.option_id",
        "o.label as option_label",
        "a.kind",
        "r.matched",
        "r.confidence",
        "r.evidence",
        "r.set_value",
        "r.evaluated_at",
      ])
      .where("r.asset_id", "=", assetId)
      .where("r.workspace_id", "=", workspaceId)
      .orderBy("f.position")
      .orderBy("o.position")
      .orderBy("a.created_at")
      .execute();
  },
  /** A queued run; its total is the workspace's processed assets now. */
  createRun(db: Db, workspaceId: string, fieldId: string | null, by: string | null): Promise<RunRow> {
    return db
      .insertInto("ai_action_runs")
      .values((eb) => ({
        workspace_id: workspaceId,
        field_id: fieldId,
        created_by: by,
        total: eb
          .selectFrom("assets")
          .select((e) => e.fn.countAll<number>().as("n"))
          .where("workspace_id", "=", workspaceId)
          .where("deleted_at", "is", null)
          .where("status", "=", "COMPLETED"),
      }))
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  run(db: Db, runId: string, workspaceId?: string): Promise<RunRow | undefined> {
    let q = db.selectFrom("ai_action_runs").selectAll().where("id", "=", runId);
    if (workspaceId) q = q.where("workspace_id", "=", workspaceId);
    return q.executeTakeFirst();
  },
  /** Sets what the patch gives (absent or null: unchanged); a run that ends gets its finish time. */
  async updateRun(
    db: Db,
    runId: string,
    patch: Partial<Pick<RunRow, "status" | "processed" | "changes" | "error" | "total">>,
  ) {
    const { status, processed, changes, error, total } = patch;
    const ends = status === "done" || status === "failed";
    await db
      .updateTable("ai_action_runs")
      .set((eb) => ({
        ...(status ? { status } : {}),
        ...(processed != null ? { processed } : {}),
        ...(changes != null ? { changes } : {}),
        ...(total != null ? { total } : {}),
        ...(error != null ? { error } : {}),
        ...(ends ? { finished_at: eb.fn<Date>("now") } : {}),
      }))
      .where("id", "=", runId)
      .execute();
  },
  /** The next page of live, processed asset ids after `after` (keyset, id order). */
  async assetPage(db: Db, workspaceId: string, after: string | null, limit: number): Promise<string[]> {
    let q = db
      .selectFrom("assets")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .where("status", "=", "COMPLETED");
    if (after) q = q.where("id", ">", after);
    const rows = await q.orderBy("id").limit(limit).execute();
    return rows.map((r) => r.id);
  },
};

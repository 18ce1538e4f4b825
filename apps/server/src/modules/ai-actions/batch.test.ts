import type { CustomField } from "@hangar/contract";
import { Kysely, PostgresDialect } from "kysely";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import type { DB } from "../../db/types.ts";
import { createFieldsService } from "../fields/index.ts";
import { createVisionRecords } from "../processing/index.ts";
import { createAiActionsService } from "./service.ts";

/**
 * An evaluation reads what it needs once for its whole batch (issue 28): the actions, the assets'
 * names, board paths and what the pipeline extracted, then writes the values and results once. A run
 * over a page of assets costs as many statements as over two; before, each asset read the actions
 * and its facts again and locked each of its values in a transaction of its own (12 statements an
 * asset with three fields, 380 for a run over 30).
 */
let env: TestEnv;
const statements: string[] = [];
let ai: ReturnType<typeof createAiActionsService>;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
  // The same services on the same pool, through a database handle that counts what they run.
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: env.rt.pool }),
    log: (e) => {
      if (e.level === "query") statements.push(e.query.sql);
    },
  });
  const fields = createFieldsService({ db, access: env.rt.access });
  ai = createAiActionsService({
    db,
    access: env.rt.access,
    log: pino({ level: "silent" }),
    fields,
    vision: createVisionRecords({ db }),
    enqueueRun: async () => {},
  });
});
afterAll(async () => {
  await ai.close();
  await env.close();
});

async function selectField(c: Client, ws: string, title: string, labels: string[]) {
  const res = await c.post(`/workspaces/${ws}/fields`, {
    title,
    field_type: "SINGLE_SELECT",
    options: labels.map((label) => ({ label, color: "#1971c2" })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CustomField;
}
async function addAction(c: Client, ws: string, f: CustomField, label: string, config: Record<string, unknown>) {
  const opt = f.options.find((o) => o.label === label)!;
  const res = await c.post(`/workspaces/${ws}/custom-fields/${f.id}/options/${opt.id}/ai-actions`, {
    kind: "metadata_matches",
    config,
  });
  expect(res.statusCode, res.body).toBe(201);
}
const counted = async (fn: () => Promise<unknown>) => {
  statements.length = 0;
  await fn();
  return statements.length;
};

describe("evaluating a batch", () => {
  it("runs as many statements for ten assets as for two, and sets each asset's values as its own facts say", async () => {
    const { ws, admin } = await workspaceWith(env);
    const shape = await selectField(admin.client, ws.id, "Shape", ["Landscape", "Portrait"]);
    await addAction(admin.client, ws.id, shape, "Landscape", { orientation: "landscape" });
    await addAction(admin.client, ws.id, shape, "Portrait", { orientation: "portrait" });
    const client = await selectField(admin.client, ws.id, "Client work", ["Acme"]);
    await addAction(admin.client, ws.id, client, "Acme", { folder_path: "Clients/Acme" });

    const db = env.rt.db;
    const parent = await db
      .insertInto("boards")
      .values({ workspace_id: ws.id, name: "Clients", position: 0 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const acme = await db
      .insertInto("boards")
      .values({ workspace_id: ws.id, name: "Acme", parent_id: parent.id, position: 0 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const ids = (
      await db
        .insertInto("assets")
        .values(
          Array.from({ length: 12 }, (_, i) => ({
            workspace_id: ws.id,
            name: `a${i}.jpg`,
            status: "COMPLETED" as const,
            is_temp: false,
            width: i % 2 ? 300 : 200,
            height: i % 2 ? 200 : 300,
          })),
        )
        .returning("id")
        .execute()
    ).map((r) => r.id);
    const inAcme = ids.filter((_, i) => i % 3 === 0);
    await db
      .insertInto("board_assets")
      .values(inAcme.map((asset_id) => ({ board_id: acme.id, asset_id })))
      .execute();

    const two = await counted(() => ai.evaluate(ws.id, ids.slice(0, 2)));
    const ten = await counted(() => ai.evaluate(ws.id, ids.slice(2)));
    expect(ten).toBe(two);

    const values = await db
      .selectFrom("field_values")
      .select(["asset_id", "field_id", "option_id", "set_by_action_id"])
      .where("workspace_id", "=", ws.id)
      .execute();
    const optionOf = (fieldId: string, assetId: string) =>
      values.find((v) => v.field_id === fieldId && v.asset_id === assetId)?.option_id ?? null;
    const [landscape, portrait] = shape.options.map((o) => o.id);
    expect(ids.map((id) => optionOf(shape.id, id))).toEqual(ids.map((_, i) => (i % 2 ? landscape : portrait)));
    expect(ids.map((id) => optionOf(client.id, id))).toEqual(
      ids.map((id) => (inAcme.includes(id) ? client.options[0]!.id : null)),
    );
    expect(values.every((v) => v.set_by_action_id)).toBe(true);
    const results = await db
      .selectFrom("ai_action_results")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("workspace_id", "=", ws.id)
      .executeTakeFirstOrThrow();
    expect(results.n).toBe(12 * 3);

    // Evaluated again, nothing changes.
    expect(await ai.evaluate(ws.id, ids)).toBe(0);
    // The facts change: a0 turns landscape (its value is replaced), a3 leaves Acme (its value is cleared).
    await db.updateTable("assets").set({ width: 300, height: 200 }).where("id", "=", ids[0]!).execute();
    await db.deleteFrom("board_assets").where("asset_id", "=", ids[3]!).execute();
    expect(await ai.evaluate(ws.id, ids)).toBe(2);
    const after = await db
      .selectFrom("field_values")
      .select(["asset_id", "field_id", "option_id"])
      .where("asset_id", "in", [ids[0]!, ids[3]!])
      .execute();
    expect(after.find((v) => v.asset_id === ids[0] && v.field_id === shape.id)?.option_id).toBe(landscape);
    expect(after.find((v) => v.asset_id === ids[3] && v.field_id === client.id)).toBeUndefined();
  });
});

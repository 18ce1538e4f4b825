import { randomUUID } from "node:crypto";
import type { AiActionResult, CustomField, FieldValue, FileRequest } from "@hangar/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, putBytes, type TestEnv, workspaceWith } from "../../../test/harness.ts";

/**
 * User-supplied patterns cannot freeze the server (issue 27): what RE2 cannot run answers 422 with
 * the reason, and hostile patterns on an AI action, evaluated on 50 files an anonymous visitor sends
 * through a request-files link, leave /healthz answering throughout. Before: `*_*_*_*_*_*.jpg`
 * against one such name held /healthz for 15 s, and `^(_|_)*$` for ever.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" });
});
afterAll(() => env.close());

const png = (i: number) =>
  sharp({ create: { width: 32, height: 24, channels: 3, background: { r: i * 5, g: 90, b: 40 } } })
    .png()
    .toBuffer();

async function selectField(c: Client, ws: string, labels: string[]) {
  const res = await c.post(`/workspaces/${ws}/fields`, {
    title: "Kind",
    field_type: "SINGLE_SELECT",
    options: labels.map((label) => ({ label, color: "#1971c2" })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CustomField;
}
const actionsPath = (ws: string, f: CustomField, label: string) =>
  `/workspaces/${ws}/custom-fields/${f.id}/options/${f.options.find((o) => o.label === label)!.id}/ai-actions`;

describe("patterns RE2 cannot run", () => {
  it("answer 422 naming the field and the reason, on create and on edit", async () => {
    const { ws, admin } = await workspaceWith(env);
    const f = await selectField(admin.client, ws.id, ["Invoices"]);
    const base = actionsPath(ws.id, f, "Invoices");
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ kind: "text_in_image", config: { pattern: "(?<=No\\.)\\d+" } }, "pattern", "Lookbehind is not supported"],
      [{ kind: "text_in_image", config: { pattern: "invoice(?!s)" } }, "pattern", "Lookahead is not supported"],
      [
        { kind: "metadata_matches", config: { file_name: "^(\\w)\\1", use_regex: true } },
        "file_name",
        "Back-references (\\1, \\2…) are not supported",
      ],
      [
        { kind: "metadata_matches", config: { folder_path: "([a-z", use_regex: true } },
        "folder_path",
        "Not a valid regular expression: missing closing ]: `[a-z`",
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await admin.client.post(base, body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toContainEqual({ field: `config.${field}`, message });
    }
    // The shapes the old check refused are fine in RE2 (linear time), and a glob is never refused.
    const ok = await admin.client.post(base, { kind: "text_in_image", config: { pattern: "(\\w+\\s?)+$" } });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(
      (await admin.client.post(base, { kind: "metadata_matches", config: { file_name: "*_*_*_*_*_*.jpg" } }))
        .statusCode,
    ).toBe(201);
    const edit = await admin.client.put(`${base}/${ok.json().id}`, {
      kind: "text_in_image",
      config: { pattern: "(?<!a)b" },
    });
    expect(edit.statusCode).toBe(422);
    expect(edit.json().errors).toContainEqual({ field: "config.pattern", message: "Lookbehind is not supported" });
  });
});

describe("hostile patterns on a visitor's uploads", () => {
  it("50 files through a request link are evaluated correctly while /healthz keeps answering", async () => {
    const { ws, admin } = await workspaceWith(env);
    const f = await selectField(admin.client, ws.id, ["JPEG", "PNG", "Odd"]);
    const add = async (label: string, config: Record<string, unknown>) => {
      const res = await admin.client.post(actionsPath(ws.id, f, label), { kind: "metadata_matches", config });
      expect(res.statusCode, res.body).toBe(201);
    };
    await add("JPEG", { file_name: "*_*_*_*_*_*.jpg" });
    await add("PNG", { file_name: "*_*_*_*_*_*.png" });
    await add("Odd", { file_name: "^(_|_)*$", use_regex: true });
    const board = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Inbox" })).json().id as string;
    const link = (
      await admin.client.post(`/workspaces/${ws.id}/boards/${board}/file-requests`, {})
    ).json() as FileRequest;

    // /healthz asked over and over; every answer and every evaluation seen takes the next number.
    let seq = 0;
    const health: number[] = [];
    let stop = false;
    const poller = (async () => {
      while (!stop) {
        // As a monitor probes: a pause between requests (inject alone never yields to I/O).
        await new Promise((r) => setTimeout(r, 10));
        const res = await env.app.inject({ url: "/healthz" });
        expect(res.statusCode).toBe(200);
        health.push(seq++);
      }
    })();

    const visitor = new Client(env.app);
    const visit = randomUUID();
    const name = `${"_".repeat(110)}.png`;
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const data = await png(i);
      const init = await visitor.request(
        "POST",
        `/request/${link.token}/upload`,
        { name, size: data.length },
        { headers: { "x-request-visit": visit } },
      );
      expect(init.statusCode, init.body).toBe(200);
      expect((await putBytes(env.app, init.json().direct_url, data)).statusCode).toBe(200);
      ids.push(init.json().asset_id);
    }

    // Each asset's results, once all three actions were evaluated on it.
    const evaluatedAt = new Map<string, number>();
    const seen = new Map<string, AiActionResult[]>();
    const until = Date.now() + 240_000;
    while (evaluatedAt.size < ids.length) {
      for (const id of ids.filter((x) => !evaluatedAt.has(x))) {
        const res = await admin.client.get(
          `/workspaces/${ws.id}/ai-actions/results?content_type=asset&object_id=${id}`,
        );
        const results = res.json() as AiActionResult[];
        if (results.length === 3) {
          evaluatedAt.set(id, seq++);
          seen.set(id, results);
        }
      }
      if (Date.now() > until) throw new Error(`${evaluatedAt.size} of ${ids.length} evaluated`);
      await new Promise((r) => setTimeout(r, 100));
    }
    stop = true;
    await poller;

    // Correct answers: the .png glob matches, the .jpg glob and the regex do not; PNG is the value.
    for (const id of ids) {
      const byLabel = Object.fromEntries(seen.get(id)!.map((r) => [r.option_label, r]));
      expect(byLabel.JPEG).toMatchObject({ matched: false, evidence: { metadata: { file_name: expect.any(String) } } });
      expect(byLabel.PNG).toMatchObject({ matched: true, set_value: true });
      expect(byLabel.Odd).toMatchObject({ matched: false });
      expect(byLabel.Odd!.evidence.note).toBeUndefined(); // evaluated, not skipped over a budget
    }
    const values = (
      await admin.client.get(`/workspaces/${ws.id}/assets/${ids[0]}/field-values`)
    ).json() as FieldValue[];
    expect(values.find((v) => v.field_id === f.id)?.option_value?.label).toBe("PNG");

    // /healthz answered between the first asset evaluated and the last, not only before and after.
    const [first, last] = [Math.min(...evaluatedAt.values()), Math.max(...evaluatedAt.values())];
    expect(health.filter((s) => s > first && s < last).length).toBeGreaterThanOrEqual(5);
  }, 300_000);
});

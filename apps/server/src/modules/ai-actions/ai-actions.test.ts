import { createRequire } from "node:module";
import path from "node:path";
import type { AiActionResult, AiRun, CustomField, FieldValue, RecognisedText } from "@hangar/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPdf, pdfStream } from "../../../test/fixtures.ts";
import {
  type Client,
  createTestEnv,
  type TestEnv,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";

/**
 * AI actions end to end (issue 16): real uploads through the real pipeline (object detector and OCR
 * on), the field answers, results with evidence, the value rules and "run on all assets".
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

/** A group photo cropped from the contact sheet Human ships (as media/ai-tags.test.ts does). */
const samples = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@vladmandic/human")),
  "..",
  "assets",
  "samples.jpg",
);
const peoplePhoto = () => sharp(samples).extract({ left: 0, top: 200, width: 640, height: 958 }).jpeg().toBuffer();

const textSvg = (lines: string[], width = 1400, height = 200 + lines.length * 130) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fdfdf8"/>${lines
      .map(
        (l, i) =>
          `<text x="70" y="${170 + i * 130}" font-family="DejaVu Sans, sans-serif" font-size="90" fill="#1a1a1a">${l}</text>`,
      )
      .join("")}</svg>`,
  );
const textImage = (lines: string[]) => sharp(textSvg(lines)).png().toBuffer();

/** A scanned page: a PDF whose only content is a greyscale JPEG of printed text (no text layer). */
async function scannedPdf(lines: string[]): Promise<Buffer> {
  const [w, h] = [1275, 1650];
  const jpeg = await sharp(textSvg(lines, w, h))
    .toColourspace("b-w")
    .jpeg({ quality: 80 })
    .toBuffer();
  const image = `<< /Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n${jpeg.toString("latin1")}\nendstream`;
  return buildPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>",
    image,
    pdfStream("q 612 0 0 792 0 0 cm /Im1 Do Q"),
  ]);
}

async function selectField(c: Client, ws: string, title: string, labels: string[], type = "SINGLE_SELECT") {
  const res = await c.post(`/workspaces/${ws}/fields`, {
    title,
    field_type: type,
    options: labels.map((label, i) => ({ label, color: ["#2b8a3e", "#1971c2", "#e8590c"][i % 3] })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CustomField;
}
const actionsPath = (ws: string, f: CustomField, label: string) =>
  `/workspaces/${ws}/custom-fields/${f.id}/options/${f.options.find((o) => o.label === label)!.id}/ai-actions`;
async function addAction(c: Client, ws: string, f: CustomField, label: string, body: Record<string, unknown>) {
  const res = await c.post(actionsPath(ws, f, label), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}
const upload = async (c: Client, ws: string, name: string, data: Buffer) => {
  const a = await waitForAsset(c, ws, await uploadBytes(c, ws, name, data), 120_000);
  expect(a.status, a.error_reason).toBe("COMPLETED");
  return a as { id: string };
};
/** Text is read after COMPLETED (the read-text job): its outcome once it is no longer pending. */
async function textOf(c: Client, ws: string, assetId: string): Promise<RecognisedText> {
  const until = Date.now() + 120_000;
  for (;;) {
    const res = await c.get(`/workspaces/${ws}/assets/${assetId}/recognised-text`);
    expect(res.statusCode, res.body).toBe(200);
    const text = res.json() as RecognisedText;
    if (text.status !== "pending") return text;
    if (Date.now() > until) throw new Error("text still pending");
    await new Promise((r) => setTimeout(r, 200));
  }
}
const valueIn = async (c: Client, ws: string, assetId: string, fieldId: string) =>
  ((await c.get(`/workspaces/${ws}/assets/${assetId}/field-values`)).json() as FieldValue[]).find(
    (v) => v.field_id === fieldId,
  );
const results = async (c: Client, ws: string, assetId: string) => {
  const res = await c.get(`/workspaces/${ws}/ai-actions/results?content_type=asset&object_id=${assetId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AiActionResult[];
};
async function runAll(c: Client, ws: string, body: Record<string, unknown> = {}): Promise<AiRun> {
  const start = await c.post(`/workspaces/${ws}/ai-actions/runs`, body);
  expect(start.statusCode, start.body).toBe(201);
  const until = Date.now() + 60_000;
  for (;;) {
    const run = (await c.get(`/workspaces/${ws}/ai-actions/runs/${start.json().id}`)).json() as AiRun;
    if (run.status === "done" || run.status === "failed") return run;
    if (Date.now() > until) throw new Error(`run still ${run.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("managing AI actions", () => {
  it("lists the kinds with their config schemas; ADMIN manages actions, others cannot; configs are validated", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const other = await workspaceWith(env);
    const kinds = (await members.COMMENTER!.client.get(`/workspaces/${ws.id}/ai-actions/available`)).json();
    expect(kinds.map((k: { kind: string }) => k.kind)).toEqual([
      "object_detected",
      "text_in_image",
      "dominant_color",
      "image_quality",
      "metadata_matches",
    ]);
    const od = kinds[0].config_schema;
    expect(od.properties.labels.items.enum).toContain("person");
    expect(od.properties.min_confidence).toMatchObject({ minimum: 0.05, maximum: 1, default: 0.5 });

    const f = await selectField(admin.client, ws.id, "Subject", ["People", "Cars"]);
    const people = f.options[0]!;
    const base = actionsPath(ws.id, f, "People");
    const body = { kind: "object_detected", config: { labels: ["person"], min_confidence: 0.4 } };
    const created = await addAction(admin.client, ws.id, f, "People", body);
    const listed = (await members.COMMENTER!.client.get(`/workspaces/${ws.id}/fields`)).json() as CustomField[];
    const opt = listed[0]!.options.find((o) => o.id === people.id)!;
    expect(opt.ai_actions).toMatchObject([{ id: created.id, kind: "object_detected", option_id: people.id }]);
    expect(opt.ai_action_configs).toEqual([{ kind: "object_detected", labels: ["person"], min_confidence: 0.4 }]);

    for (const who of [members.EDITOR!.client, members.COMMENTER!.client]) {
      expect((await who.post(base, body)).statusCode).toBe(403);
      expect((await who.put(`${base}/${created.id}`, body)).statusCode).toBe(403);
      expect((await who.del(`${base}/${created.id}`)).statusCode).toBe(403);
      expect((await who.post(`/workspaces/${ws.id}/ai-actions/runs`, {})).statusCode).toBe(403);
    }
    const o = other.admin.client;
    for (const res of await Promise.all([
      o.get(`/workspaces/${ws.id}/ai-actions/available`),
      o.post(base, body),
      o.put(`${base}/${created.id}`, body),
      o.del(`${base}/${created.id}`),
      o.post(`/workspaces/${ws.id}/ai-actions/runs`, {}),
      o.get(`/workspaces/${ws.id}/ai-actions/results?content_type=asset&object_id=${crypto.randomUUID()}`),
      // Our field and option through their own workspace.
      o.post(`/workspaces/${other.ws.id}/custom-fields/${f.id}/options/${people.id}/ai-actions`, body),
    ]))
      expect(res.statusCode, res.body).toBe(404);

    const bad = [
      { kind: "object_detected", config: { labels: ["unicorn"] } },
      { kind: "object_detected", config: { labels: [] } },
      { kind: "object_detected", config: { labels: ["person"], min_confidence: 2 } },
      { kind: "object_detected", config: { labels: ["person"], extra: 1 } },
      { kind: "text_in_image", config: {} },
      { kind: "text_in_image", config: { pattern: "([a-z" } },
      { kind: "text_in_image", config: { pattern: "(?<=a)b" } },
      { kind: "metadata_matches", config: { file_name: "(a)\\1", use_regex: true } },
      { kind: "dominant_color", config: { color: "red" } },
      { kind: "image_quality", config: {} },
      { kind: "metadata_matches", config: { gps_south: 1, gps_north: 2 } },
      { kind: "metadata_matches", config: {} },
      { kind: "face_detected", config: {} },
    ];
    for (const b of bad) expect((await admin.client.post(base, b)).statusCode, JSON.stringify(b)).toBe(422);
    const notes = (
      await admin.client.post(`/workspaces/${ws.id}/fields`, { title: "Notes", field_type: "TEXT" })
    ).json();
    expect(
      (await admin.client.post(`/workspaces/${ws.id}/custom-fields/${notes.id}/options/${people.id}/ai-actions`, body))
        .statusCode,
    ).toBe(404);

    const edited = await admin.client.put(`${base}/${created.id}`, {
      kind: "text_in_image",
      config: { words: ["crowd"] },
    });
    expect(edited.json()).toMatchObject({ kind: "text_in_image", config: { words: ["crowd"], match: "any" } });
    expect((await admin.client.del(`${base}/${created.id}`)).json()).toEqual({ status: "ok" });
    expect((await admin.client.del(`${base}/${created.id}`)).statusCode).toBe(404);
  });
});

describe("evaluating on real images", () => {
  it("a photo with people sets the option by object_detected, with the label and its box as evidence", async () => {
    const { ws, admin } = await workspaceWith(env);
    const f = await selectField(admin.client, ws.id, "Subject", ["People", "Food"]);
    const act = await addAction(admin.client, ws.id, f, "People", {
      kind: "object_detected",
      config: { labels: ["person"], min_confidence: 0.3 },
    });
    await addAction(admin.client, ws.id, f, "Food", {
      kind: "object_detected",
      config: { labels: ["pizza", "cake"], min_confidence: 0.3 },
    });
    const a = await upload(admin.client, ws.id, "group.jpg", await peoplePhoto());
    const v = await valueIn(admin.client, ws.id, a.id, f.id);
    expect(v).toMatchObject({ option_value: { label: "People" }, set_by: { kind: "action", action_id: act.id } });
    const r = (await results(admin.client, ws.id, a.id)).find((x) => x.action_id === act.id)!;
    expect(r).toMatchObject({ matched: true, set_value: true, option_label: "People", content_type: "asset" });
    const person = r.evidence.objects!.find((o) => o.label === "person")!;
    expect(person.box).toHaveLength(4);
    expect(person.box!.every((n) => n >= 0 && n <= 1)).toBe(true);
    const food = (await results(admin.client, ws.id, a.id)).find((x) => x.option_label === "Food")!;
    expect(food).toMatchObject({ matched: false, set_value: false });
  });

  // OCR of a page and a picture on a busy machine: the reads are waited for (textOf), not timed.
  it("rendered text and a scanned PDF page set an option by text_in_image; the text is searchable and shown", {
    timeout: 180_000,
  }, async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const f = await selectField(admin.client, ws.id, "Document", ["Invoice", "Contract"]);
    await addAction(admin.client, ws.id, f, "Invoice", { kind: "text_in_image", config: { words: ["invoice"] } });
    await addAction(admin.client, ws.id, f, "Contract", {
      kind: "text_in_image",
      config: { pattern: "contract\\s+no\\.?\\s*\\d+" },
    });
    const img = await upload(
      admin.client,
      ws.id,
      "scan.png",
      await textImage(["Hangar invoice 2026", "Total 1250 EUR"]),
    );
    const pdf = await upload(
      admin.client,
      ws.id,
      "signed.pdf",
      await scannedPdf(["Contract No. 4471", "Signed in Lisbon"]),
    );
    expect((await textOf(admin.client, ws.id, img.id)).status).toBe("done");
    expect((await valueIn(admin.client, ws.id, img.id, f.id))?.option_value?.label).toBe("Invoice");
    const pdfText = await textOf(admin.client, ws.id, pdf.id);
    expect((await valueIn(admin.client, ws.id, pdf.id, f.id))?.option_value?.label, JSON.stringify(pdfText)).toBe(
      "Contract",
    );
    const ev = (await results(admin.client, ws.id, img.id)).find((x) => x.option_label === "Invoice")!;
    expect(ev.evidence.words!.map((w) => w.text.toLowerCase())).toEqual(["invoice"]);
    expect(ev.confidence).toBeGreaterThan(0.6);
    const pdfEv = (await results(admin.client, ws.id, pdf.id)).find((x) => x.option_label === "Contract")!;
    expect(pdfEv.evidence.words!.map((w) => w.text)).toEqual(expect.arrayContaining(["4471"]));
    expect(pdfEv.evidence.words![0]!.page).toBe(1);
    // Searchable, and readable by any member.
    const search = async (q: string) =>
      (
        (await admin.client.post(`/workspaces/${ws.id}/assets`, { search: q })).json().data as Array<{ id: string }>
      ).map((x) => x.id);
    expect(await search("invoice")).toEqual([img.id]);
    expect(await search("lisbon")).toEqual([pdf.id]);
    const text = (await members.COMMENTER!.client.get(`/workspaces/${ws.id}/assets/${img.id}/recognised-text`)).json();
    expect(text.status).toBe("done");
    expect(text.text.toLowerCase()).toContain("hangar invoice 2026");
  });
});

describe("value rules and run on all assets", () => {
  it("never overwrites a person's value (even a cleared one); run on all reports its changes", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    const editor = members.EDITOR!.client;
    const f = await selectField(admin.client, ws.id, "Kind", ["Wide", "Tall", "Red"]);
    const wide = await upload(
      admin.client,
      ws.id,
      "wide.png",
      await sharp({ create: { width: 600, height: 300, channels: 3, background: "#d23c28" } })
        .png()
        .toBuffer(),
    );
    const tall = await upload(
      admin.client,
      ws.id,
      "tall.png",
      await sharp({ create: { width: 300, height: 600, channels: 3, background: "#d23c28" } })
        .png()
        .toBuffer(),
    );
    const mine = await upload(
      admin.client,
      ws.id,
      "mine.png",
      await sharp({ create: { width: 500, height: 200, channels: 3, background: "#1c7ed6" } })
        .png()
        .toBuffer(),
    );
    const cleared = await upload(
      admin.client,
      ws.id,
      "cleared.png",
      await sharp({ create: { width: 700, height: 200, channels: 3, background: "#1c7ed6" } })
        .png()
        .toBuffer(),
    );
    // The text read after COMPLETED runs the actions again: let it finish, so the changes below are the runs' own.
    for (const a of [wide, tall, mine, cleared])
      expect((await textOf(admin.client, ws.id, a.id)).status).not.toBe("pending");
    // People choose first: an option on one, Unassigned on another.
    await editor.post(`/workspaces/${ws.id}/field-values/${f.id}`, {
      asset_ids: [mine.id],
      option_value_id: f.options[1]!.id,
    });
    await editor.post(`/workspaces/${ws.id}/field-values/${f.id}`, { asset_ids: [cleared.id], option_value_id: null });

    const wideAct = await addAction(admin.client, ws.id, f, "Wide", {
      kind: "metadata_matches",
      config: { orientation: "landscape" },
    });
    await addAction(admin.client, ws.id, f, "Tall", { kind: "metadata_matches", config: { file_name: "tall.*" } });
    const red = await addAction(admin.client, ws.id, f, "Red", {
      kind: "dominant_color",
      config: { color: "#e03131", max_distance: 15, min_share: 0.5 },
    });
    const run = await runAll(admin.client, ws.id);
    expect(run).toMatchObject({ status: "done", total: 4, processed: 4, changes: 2 });
    // Wide and Red both match the wide red picture at confidence 1 vs below 1: the most confident wins.
    expect((await valueIn(admin.client, ws.id, wide.id, f.id))?.set_by).toEqual({
      kind: "action",
      action_id: wideAct.id,
    });
    const wideResults = await results(admin.client, ws.id, wide.id);
    expect(wideResults.find((r) => r.action_id === red.id)).toMatchObject({ matched: true, set_value: false });
    expect(wideResults.find((r) => r.action_id === red.id)!.evidence.colors![0]!.hex).toMatch(/^#/);
    expect((await valueIn(admin.client, ws.id, tall.id, f.id))?.option_value?.label).toBe("Tall");
    expect(await valueIn(admin.client, ws.id, mine.id, f.id)).toMatchObject({
      option_value: { label: "Tall" },
      set_by: { kind: "user" },
    });
    expect(await valueIn(admin.client, ws.id, cleared.id, f.id)).toMatchObject({
      option_value: null,
      set_by: { kind: "user" },
    });
    expect((await results(admin.client, ws.id, mine.id)).find((r) => r.option_label === "Wide")).toMatchObject({
      matched: true,
      set_value: false,
    });

    // Nothing new to do: a second run changes nothing.
    expect((await runAll(admin.client, ws.id)).changes).toBe(0);
    // A person's edit takes an action's value over; the next run leaves it.
    await editor.post(`/workspaces/${ws.id}/field-values/${f.id}`, {
      asset_ids: [wide.id],
      option_value_id: f.options[2]!.id,
    });
    expect((await runAll(admin.client, ws.id)).changes).toBe(0);
    expect((await valueIn(admin.client, ws.id, wide.id, f.id))?.option_value?.label).toBe("Red");
    // An action's value that no longer matches is cleared: tall.png stops matching once the pattern
    // changes and the colour action is gone.
    await admin.client.del(
      `/workspaces/${ws.id}/custom-fields/${f.id}/options/${f.options[2]!.id}/ai-actions/${red.id}`,
    );
    const tallOpt = f.options[1]!;
    const tallAction = (await admin.client.get(`/workspaces/${ws.id}/fields`)).json()[0].options[1].ai_actions[0];
    await admin.client.put(
      `/workspaces/${ws.id}/custom-fields/${f.id}/options/${tallOpt.id}/ai-actions/${tallAction.id}`,
      {
        kind: "metadata_matches",
        config: { file_name: "portrait-*.png" },
      },
    );
    expect((await runAll(admin.client, ws.id, { field_id: f.id })).changes).toBe(1);
    expect(await valueIn(admin.client, ws.id, tall.id, f.id)).toBeUndefined();
  });
});

describe("a robust pipeline", () => {
  it("an OCR timeout is recorded and the asset completes anyway, other actions still run", {
    timeout: 120_000,
  }, async () => {
    // A read stopped by a limit is tried again after a backoff (1, 2, 4 s here); the last try fails for good.
    const slow = await createTestEnv({ OCR_TIMEOUT_MS: "1", OCR_RETRY_DELAY_SECONDS: "1", AI_TAGS: "0" });
    try {
      const { ws, admin } = await workspaceWith(slow);
      const f = await selectField(admin.client, ws.id, "Shape", ["Wide", "Invoice"]);
      await addAction(admin.client, ws.id, f, "Wide", {
        kind: "metadata_matches",
        config: { orientation: "landscape" },
      });
      await addAction(admin.client, ws.id, f, "Invoice", { kind: "text_in_image", config: { words: ["invoice"] } });
      const a = await upload(admin.client, ws.id, "scan.png", await textImage(["Hangar invoice 2026"]));
      const text = await textOf(admin.client, ws.id, a.id);
      expect(text).toMatchObject({ status: "failed", text: "", error: "Text could not be read" });
      expect((await valueIn(admin.client, ws.id, a.id, f.id))?.option_value?.label).toBe("Wide");
      const r = (await results(admin.client, ws.id, a.id)).find((x) => x.option_label === "Invoice")!;
      expect(r).toMatchObject({ matched: false, evidence: { note: "No text found" } });
    } finally {
      await slow.close();
    }
  });
});

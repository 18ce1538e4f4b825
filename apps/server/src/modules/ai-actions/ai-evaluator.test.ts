import { setImmediate as nextTurn } from "node:timers/promises";
import { AI_ACTION_CONFIGS } from "@hangar/contract";
import { afterAll, describe, expect, it } from "vitest";
import type { AssetFacts } from "./ai-evaluate.ts";
import { createEvaluator, evaluateBatch } from "./ai-evaluator.ts";

/** AI actions are evaluated in a worker thread under a time budget (issue 27). */
const words = (text: string) =>
  text.split(" ").map((t, i) => ({ text: t, confidence: 90, box: [i * 0.01, 0, i * 0.01 + 0.01, 0.1], page: 1 }));
const facts = (over: Partial<AssetFacts> = {}): AssetFacts => ({
  id: "00000000-0000-4000-8000-000000000001",
  name: `${"_".repeat(110)}.png`,
  width: 800,
  height: 600,
  camera_make: null,
  camera_model: null,
  gps_latitude: null,
  gps_longitude: null,
  palette: null,
  quality: { sharpness: null, contrast: null, brightness: null },
  objects: [],
  words: words("Quarterly invoice No. 2026-117"),
  board_paths: ["Clients/Acme"],
  ...over,
});
const actions = [
  {
    kind: "metadata_matches" as const,
    config: AI_ACTION_CONFIGS.metadata_matches.parse({ file_name: "*_*_*_*_*_*.jpg" }),
  },
  {
    kind: "metadata_matches" as const,
    config: AI_ACTION_CONFIGS.metadata_matches.parse({ file_name: "*_*_*_*_*_*.png" }),
  },
  { kind: "text_in_image" as const, config: AI_ACTION_CONFIGS.text_in_image.parse({ pattern: "no\\.\\s*\\d{4}" }) },
  // Stored before RE2: the contract refuses it now, evaluation says why instead of matching.
  { kind: "text_in_image" as const, config: { pattern: "invoice(?= No)", match: "any", case_sensitive: false } },
];

const evaluator = createEvaluator();
const stingy = createEvaluator({ budgetMs: 0 });
afterAll(async () => {
  await evaluator.close();
  await stingy.close();
});

describe("the evaluation thread", () => {
  it("answers what the actions say, one result per action, in order; a pattern RE2 cannot run says why", async () => {
    const got = await evaluator.evaluate(actions, facts());
    expect(got).toEqual(evaluateBatch({ actions, facts: facts(), budgetMs: 60_000 }));
    expect(got.map((e) => e.matched)).toEqual([false, true, true, false]);
    expect(got[2]!.evidence.words!.map((w) => w.text)).toEqual(["No.", "2026-117"]);
    expect(got[3]!.evidence.note).toBe("Could not evaluate: Lookahead is not supported");
  });

  it("leaves the event loop free while it works", async () => {
    await evaluator.evaluate(actions.slice(0, 1), facts()); // the thread is up: only the batch is measured
    // A long document's text and a pattern whose match must be located: tens of milliseconds of work.
    const long = facts({ words: words("lorem ipsum dolor sit amet ".repeat(400).trim()) });
    const heavy = Array.from({ length: 3 }, () => ({
      kind: "text_in_image" as const,
      config: AI_ACTION_CONFIGS.text_in_image.parse({ pattern: "(.*a){12}" }),
    }));
    let done = false;
    const pending = evaluator.evaluate(heavy, long).finally(() => {
      done = true;
    });
    let turns = 0;
    while (!done) {
      await nextTurn();
      turns++;
    }
    expect((await pending).every((e) => e.matched)).toBe(true);
    // Evaluated on this thread, the batch would have run inside evaluate() before any turn.
    expect(turns).toBeGreaterThan(10);
  });

  it("an exhausted budget answers a note for each action it did not finish: no crash, no match", async () => {
    const got = await stingy.evaluate(actions, facts());
    expect(got).toHaveLength(actions.length);
    for (const e of got)
      expect(e).toEqual({
        matched: false,
        confidence: 0,
        evidence: { note: "Not evaluated: the evaluation took longer than its 0 ms budget" },
      });
  });
});

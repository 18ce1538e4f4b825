import pino from "pino";
import { describe, expect, it } from "vitest";
import {
  FULL_READ_BUDGET_FACTOR,
  OCR_IMAGE_SIDE,
  OCR_PAGE_SIDE,
  OCR_PROBE,
  readText,
  TextLater,
  type TextReader,
} from "./read-text.ts";
import { cpuBudgetFor } from "./text-job.ts";

/** The pipeline's OCR policy, on a reader that records its calls (media/ocr.test.ts runs the real one). */
const log = pino({ level: "silent" });
function reader(answers: Array<string[] | Error>) {
  const calls: Array<Parameters<TextReader["recognise"]>[1]> = [];
  const r: TextReader = {
    async recognise(_files, options) {
      calls.push(options);
      const a = answers[calls.length - 1]!;
      if (a instanceof Error) throw a;
      return {
        text: a.join(" "),
        words: a.map((text) => ({ text, confidence: 90, box: [0, 0, 1, 1], page: 1 })),
        ms: 5,
      };
    },
  };
  return { r, calls };
}

describe("readText", () => {
  it("a photo without text costs one quick look", async () => {
    const { r, calls } = reader([[]]);
    expect(await readText(r, ["a.jpg"], "image", log)).toMatchObject({ status: "done", text: "", words: [] });
    expect(calls).toEqual([OCR_PROBE]);
  });

  it("a picture with text is read again in full", async () => {
    const { r, calls } = reader([["Invo1ce"], ["Invoice", "2026"]]);
    expect(await readText(r, ["a.png"], "image", log)).toMatchObject({ status: "done", text: "Invoice 2026", ms: 10 });
    expect(calls).toEqual([OCR_PROBE, { maxSide: OCR_IMAGE_SIDE }]);
  });

  it("pages are always read in full; a failure is an outcome with its reason, not an error", async () => {
    const { r, calls } = reader([["Contract"]]);
    expect((await readText(r, ["1.jpg", "2.jpg"], "pages", log)).status).toBe("done");
    expect(calls).toEqual([{ maxSide: OCR_PAGE_SIDE }]);
    const failing = reader([Object.assign(new Error("OCR timed out"), { reason: "Text could not be read" })]);
    expect(await readText(failing.r, ["a.jpg"], "image", log)).toEqual({
      status: "failed",
      error: "Text could not be read",
    });
  });

  it("a read stopped by its budget is TextLater while budgeted, and an outcome on the last try", async () => {
    const later = () => Object.assign(new Error("OCR ran over its CPU time budget (5 ms)"), { later: true });
    const budgeted = reader([later()]);
    await expect(readText(budgeted.r, ["a.jpg"], "image", log, 5)).rejects.toBeInstanceOf(TextLater);
    expect(budgeted.calls).toEqual([{ ...OCR_PROBE, cpuBudgetMs: 5 }]);
    const full = reader([["Invoice"], ["Invoice", "2026"]]);
    await readText(full.r, ["a.jpg"], "image", log, 5);
    expect(full.calls[1]).toEqual({ maxSide: OCR_IMAGE_SIDE, cpuBudgetMs: 5 * FULL_READ_BUDGET_FACTOR });
    const last = reader([later()]);
    expect((await readText(last.r, ["a.jpg"], "image", log, null)).status).toBe("failed");
    // Twice the budget each try, none on the last.
    const deps = { cpuBudgetMs: 3000, retries: 3 };
    expect([0, 1, 2, 3].map((n) => cpuBudgetFor(deps, n))).toEqual([3000, 6000, 12_000, null]);
  });
});

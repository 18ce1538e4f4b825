import { ZipDownloadAnswer } from "@hangar/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerIs, isText } from "./answer-check";

const zip = (a: Record<string, unknown>) => isText(a.download_url) && isText(a.filename);

describe("answerIs", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("asks the contract's schema in development builds", () => {
    vi.stubEnv("DEV", true);
    expect(answerIs(ZipDownloadAnswer, { download_url: "/z", filename: "a.zip" }, () => false)).toBe(true);
    expect(answerIs(ZipDownloadAnswer, { download_url: 1, filename: "a.zip" }, () => true)).toBe(false);
  });

  it("checks by hand in production builds (no zod there)", () => {
    vi.stubEnv("DEV", false);
    const refuse = { safeParse: () => ({ success: false }) };
    expect(answerIs(refuse, { download_url: "/z", filename: "a.zip" }, zip)).toBe(true);
    expect(answerIs(refuse, { download_url: "/z" }, zip)).toBe(false);
    expect(answerIs(refuse, [{ download_url: "/z", filename: "a.zip" }], () => true)).toBe(false);
    expect(answerIs(refuse, null, () => true)).toBe(false);
  });
});

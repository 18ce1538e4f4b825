import { AI_ACTION_CONFIGS, type AiActionKind, regexProblem } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import type { AssetFacts } from "./ai-evaluate.ts";
import { evaluateBatch } from "./ai-evaluator.ts";
import { globMatches, patternMatches } from "./patterns.ts";

/**
 * Patterns a user gives (issue 27): the families that backtrack catastrophically in a JavaScript
 * RegExp, on 255-character inputs, each answering correctly (before: seconds to forever, with the
 * event loop held; the vitest timeout guards the time). The expected answers hold at any length;
 * at a length where backtracking is harmless the native engine is asked too, to check them.
 */
const facts = (over: Partial<AssetFacts> = {}): AssetFacts => ({
  id: "00000000-0000-4000-8000-000000000001",
  name: "x",
  width: null,
  height: null,
  camera_make: null,
  camera_model: null,
  gps_latitude: null,
  gps_longitude: null,
  palette: null,
  quality: { sharpness: null, contrast: null, brightness: null },
  objects: [],
  words: [],
  board_paths: [],
  ...over,
});
const one = (kind: AiActionKind, config: unknown, f: AssetFacts) =>
  evaluateBatch({ actions: [{ kind, config: AI_ACTION_CONFIGS[kind].parse(config) }], facts: f, budgetMs: 60_000 })[0]!;
/** A file name `n` long: `body` repeated, then `tail`. */
const named = (body: string, tail: string, n: number) =>
  body.repeat(Math.ceil(n / body.length)).slice(0, n - tail.length) + tail;

type Case = { pattern: string; body: string; tail: string; matches: boolean };
const REGEXES: Case[] = [
  // The probe's, and the classic families (OWASP's ReDoS list among them).
  { pattern: "^(a|a)*$", body: "a", tail: "!", matches: false },
  { pattern: "^(a|a)*$", body: "a", tail: "", matches: true },
  { pattern: "^(?:(?:a+))+$", body: "a", tail: "!", matches: false },
  { pattern: "(a+)+$", body: "a", tail: "!", matches: false },
  { pattern: "(a+)+$", body: "a", tail: "a", matches: true },
  { pattern: "(a|aa)+$", body: "a", tail: "!", matches: false },
  { pattern: "^(a|a?)+$", body: "a", tail: "!", matches: false },
  { pattern: "(.*a){12}", body: "a", tail: "!".repeat(250), matches: false }, // 5 a's then 250 !
  { pattern: "(.*a){12}", body: "ab", tail: "", matches: true },
  { pattern: "(\\w+\\s?)+$", body: "word ", tail: "!", matches: false },
  { pattern: "^(\\w+\\s?)*$", body: "word ", tail: "word", matches: true },
  { pattern: "((a*)*)*b", body: "a", tail: "", matches: false },
  { pattern: "(x+x+)+y", body: "x", tail: "", matches: false },
  { pattern: "^(\\d+)*$", body: "1", tail: "x", matches: false },
  { pattern: "^([a-z0-9]+\\.?)+@", body: "a", tail: "!", matches: false },
  { pattern: "^(([a-z])+.)+[0-9]([a-z])+$", body: "a", tail: "", matches: false },
  { pattern: "^(.*?,){11}P", body: "1,", tail: "", matches: false },
];

describe("catastrophic regexes answer correctly, in linear time", () => {
  it.each(REGEXES)("$pattern on 255 characters ($body…$tail) → $matches", ({ pattern, body, tail, matches }) => {
    const name = named(body, tail, 255);
    expect(name).toHaveLength(255);
    expect(patternMatches(pattern, name, true)).toBe(matches);
    // Through the action kinds: a file name and OCR text, the evidence saying what was seen.
    const byName = one("metadata_matches", { file_name: pattern, use_regex: true }, facts({ name }));
    expect(byName).toMatchObject({ matched: matches, evidence: { metadata: { file_name: name } } });
    const byText = one(
      "text_in_image",
      { pattern },
      facts({ words: [{ text: name, confidence: 90, box: [0, 0, 1, 1], page: 1 }] }),
    );
    expect(byText.matched).toBe(matches);
  });

  it("the expected answers are the native engine's where it is harmless (13 characters)", () => {
    for (const { pattern, body, tail, matches } of REGEXES) {
      const short = named(body, tail, Math.max(13, tail.length + 1));
      // (.*a){12} needs 12 a's: the short input keeps the family, not the count.
      if (pattern === "(.*a){12}") continue;
      expect(new RegExp(pattern, "iu").test(short), `${pattern} native`).toBe(matches);
      expect(patternMatches(pattern, short, true), `${pattern} ours`).toBe(matches);
    }
    expect(patternMatches("(.*a){12}", "ab".repeat(12), true)).toBe(/(.*a){12}/iu.test("ab".repeat(12)));
  });

  it("case-insensitive over Unicode, like the iu flags", () => {
    expect(patternMatches("^café_\\d+\\.JPG$", "CAFÉ_12.jpg", true)).toBe(true);
    expect(patternMatches("σ", "Σ", true)).toBe(true);
    expect(patternMatches("\\u00e9t\\u00E9", "ÉTÉ", true)).toBe(true); // JavaScript's escapes still work
    expect(patternMatches("(?<year>\\d{4})-", "2026-11", true)).toBe(true);
    expect(
      one(
        "text_in_image",
        { pattern: "Invoice", case_sensitive: true },
        facts({ words: [{ text: "INVOICE", confidence: 90, box: [0, 0, 1, 1], page: 1 }] }),
      ).matched,
    ).toBe(false);
  });
});

describe("the glob matcher is linear", () => {
  // (value length + 1) × (pattern length + 1): the matcher's bound, counted rather than timed.
  const bounded = (pattern: string, value: string, expected: boolean) => {
    const stats = { steps: 0 };
    expect(globMatches(pattern, value, stats), `${pattern} on ${value.length} chars`).toBe(expected);
    expect(stats.steps).toBeLessThanOrEqual((value.length + 1) * (pattern.length + 1));
    return stats.steps;
  };

  it.each([
    // The probe's: 15 s and 13.5 s as RegExps.
    ["*_*_*_*_*_*.jpg", `${"_".repeat(110)}.png`, false],
    ["*_*_*_*_*_*.png", `${"_".repeat(110)}.png`, true],
    ["*a*a*a*a*a*ab", "a".repeat(100), false],
    ["*a*a*a*a*a*ab", `${"a".repeat(100)}b`, true],
    // At 255 characters, and `**`-heavy families (they cross `/`).
    ["*_*_*_*_*_*_*_*_*_*.jpg", `${"_".repeat(251)}.png`, false],
    ["**a**a**a**a**a**a**b", "a".repeat(255), false],
    ["**/**/**/**/**/**/x", "a/".repeat(127), false],
    ["**/**/**/**/**/**/x", `${"a/".repeat(127)}x`, true],
    ["**a*a**a*a**a*a**/b", `${"a/".repeat(127)}a`, false],
    ["?*?*?*?*?*?*?*?*?*?*!", "?".repeat(255), false],
    ["*?*?*?*?*?*?*?*?*?*?", "x".repeat(255), true],
  ])("%s against %#: bounded steps, the right answer", (pattern, value, expected) => {
    bounded(pattern, value, expected as boolean);
  });

  it("steps grow linearly with the value: twice the name, at most twice the steps", () => {
    const p = "*a*a*a*a*a*ab";
    const s1 = bounded(p, "a".repeat(1000), false);
    const s2 = bounded(p, "a".repeat(2000), false);
    expect(s2).toBeLessThanOrEqual(2 * s1);
  });

  it("keeps today's meaning: * within a segment, ** across, ? one character, the rest literal, any case", () => {
    expect(globMatches("Clients/*/Logos", "clients/Acme/LOGOS")).toBe(true);
    expect(globMatches("Clients/*", "Clients/Acme/Logos")).toBe(false);
    expect(globMatches("Clients/**", "Clients/Acme/Logos")).toBe(true);
    expect(globMatches("**/Logos", "Clients/Acme/Logos")).toBe(true);
    expect(globMatches("Clients/**/Logos", "Clients/Logos")).toBe(false); // the slashes are literal
    expect(globMatches("?.png", "x.png")).toBe(true);
    expect(globMatches("?.png", "xy.png")).toBe(false);
    expect(globMatches("?", "/")).toBe(false);
    expect(globMatches("?.png", "😀.png")).toBe(true); // one character, not one UTF-16 unit
    expect(globMatches("a.b(1)*", "a.b(1) final")).toBe(true);
    expect(globMatches("a.b(1)*", "axb(1)")).toBe(false);
    expect(globMatches("[ab].png", "[ab].png")).toBe(true);
    expect(globMatches("[ab].png", "a.png")).toBe(false);
    expect(globMatches("***", "a/b")).toBe(true);
    expect(globMatches("", "")).toBe(true);
    expect(globMatches("*", "")).toBe(true);
    expect(globMatches("ÉTÉ-*", "été-2026.jpg")).toBe(true);
    // A decomposed name (macOS) equals a composed pattern.
    expect(globMatches("café.jpg", "cafe\u0301.jpg")).toBe(true);
    expect(globMatches("K*", "\u212Aelvin")).toBe(true); // the Kelvin sign folds to k
  });
});

describe("the contract refuses what RE2 cannot run, saying why", () => {
  it.each([
    ["(?<=a)b", "Lookbehind is not supported"],
    ["(?<!a)b", "Lookbehind is not supported"],
    ["a(?=b)", "Lookahead is not supported"],
    ["a(?!b)", "Lookahead is not supported"],
    ["(a)\\1", "Back-references (\\1, \\2…) are not supported"],
    ["(?<x>a)\\k<x>", "Named back-references (\\k<name>) are not supported"],
    ["a++", "Possessive quantifiers (like a++) are not supported"],
    ["[a-z", "Not a valid regular expression: missing closing ]: `[a-z`"],
    ["(ab", "Not a valid regular expression: missing closing ): `(ab`"],
    ["a{1001}", "Not a valid regular expression: invalid repeat count: `{1001}`"],
  ])("%s → %s", (pattern, reason) => {
    expect(regexProblem(pattern)).toBe(reason);
  });

  it("a pattern whose program is too large is refused; escapes and classes are not mistaken for syntax", () => {
    expect(regexProblem("[\\s\\S]{500}x")).toMatch(
      /^The pattern is too complex \(\d+ steps per character, at most 300\)/,
    );
    expect(regexProblem("\\(?=x")).toBeNull(); // an escaped parenthesis, then ?=
    expect(regexProblem("[(?<=]x")).toBeNull(); // inside a class
    expect(regexProblem("\\\\1")).toBeNull(); // an escaped backslash, then 1
    // The shapes the old check refused as catastrophic are fine now: RE2 runs them in linear time.
    for (const p of ["(a+)+", "(\\w+\\s?)+$", "(a*)*b", "^(a|a)*$"]) expect(regexProblem(p), p).toBeNull();
  });
});

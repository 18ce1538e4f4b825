import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";
import { SCREENS_DIR } from "./screenshots.ts";

/** What axe checks: WCAG 2.0 and 2.1, levels A and AA (issue 35). */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/** What fails the test; moderate and minor findings are printed and counted, not failed on. */
const BLOCKING = new Set(["critical", "serious"]);

export interface Finding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string; summary: string }>;
}

/**
 * Runs axe (axe-core from the npm package, injected into the page: nothing is fetched) on the whole
 * page as it is now, and answers every violation of the WCAG tags, one entry per rule.
 */
export async function audit(page: Page, screen: string): Promise<Finding[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations.map((v) => ({
    screen,
    rule: v.id,
    impact: v.impact ?? "unknown",
    help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(" "),
      // axe's own explanation, first line only (contrast ratios, what name is missing).
      summary: (n.failureSummary ?? "").split("\n").slice(1, 2).join("").trim(),
    })),
  }));
}

export const blocking = (findings: Finding[]) => findings.filter((f) => BLOCKING.has(f.impact));

/** One line per rule and screen, the first few nodes under it: what a developer reads to fix it. */
export function describe(findings: Finding[]): string {
  return findings
    .map((f) => {
      const nodes = f.nodes.slice(0, 4).map((n) => `      ${n.target}${n.summary ? ` — ${n.summary}` : ""}`);
      if (f.nodes.length > 4) nodes.push(`      … and ${f.nodes.length - 4} more`);
      return [`  [${f.impact}] ${f.screen}: ${f.rule} (${f.nodes.length}) ${f.help}`, ...nodes].join("\n");
    })
    .join("\n");
}

/** Violations by rule (nodes added up over screens), for the run's summary and the report. */
export function tally(findings: Finding[]): Record<string, { impact: string; nodes: number; screens: number }> {
  const out: Record<string, { impact: string; nodes: number; screens: number }> = {};
  for (const f of findings) {
    out[f.rule] ??= { impact: f.impact, nodes: 0, screens: 0 };
    const row = out[f.rule]!;
    row.nodes += f.nodes.length;
    row.screens += 1;
  }
  return out;
}

/** Writes the findings of one size as JSON beside the screenshots (test-results/, ignored). */
export function saveFindings(name: string, findings: Finding[]) {
  mkdirSync(SCREENS_DIR, { recursive: true });
  writeFileSync(
    path.join(SCREENS_DIR, `a11y-${name}.json`),
    JSON.stringify({ byRule: tally(findings), findings }, null, 2),
  );
}

/** A dialog or drawer done animating in: axe must not measure contrast on a half-faded screen. */
export const settled = async (dialog: Locator) => {
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toHaveCSS("opacity", "1");
};

/** Every picture on the page loaded (cards, previews), so a screen is audited as people see it. */
export const picturesLoaded = (page: Page) =>
  expect
    .poll(() => page.locator("img").evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete)), {
      timeout: 30_000,
    })
    .toBe(true);

/**
 * axe's best-practice rules for what issue 35 asks beyond WCAG's tags: one `<main>`, an h1, headings
 * that never skip a level, one banner (none added by a dialog), no empty table header.
 */
const STRUCTURE_RULES = [
  "landmark-one-main",
  "page-has-heading-one",
  "heading-order",
  "landmark-no-duplicate-banner",
  "landmark-no-duplicate-main",
  "empty-table-header",
];

/** What is wrong with a screen's structure and title, one line each (empty: nothing). */
export async function structure(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withRules(STRUCTURE_RULES).analyze();
  const out = result.violations.map(
    (v) => `${screen}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
  // Each page says where one is: "Launch · Hangar", not the bare product name (issue 35).
  const title = await page.title();
  if (!title || title === "Hangar") out.push(`${screen}: the document's title is "${title}"`);
  return out;
}

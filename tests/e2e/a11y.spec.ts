import { type Browser, test } from "@playwright/test";
import { audit, blocking, describe, type Finding, saveFindings, structure, tally } from "./a11y-support.ts";
import { buildWorld, DESKTOP, expect, PHONE, screens, type World, walkScreens } from "./screens-support.ts";
import { screenshots } from "./screenshots.ts";

/**
 * Issue 35, accessibility: axe (WCAG 2.1 A and AA) on every route and main dialog at 1440 × 900 and
 * 390 × 844 finds no critical or serious violation; by keyboard alone one reaches the grid past a
 * skip link, opens an asset, switches its tabs, closes it and is back on its card. The screens and
 * how each is reached are screens-support.ts's (phone-walk.spec.ts walks the same ones).
 */
const shot = screenshots("a11y");
test.use({ actionTimeout: 30_000 });

let world: World;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(180_000);
  world = await buildWorld(browser, "Access studio");
});
test.afterAll(async () => {
  await world?.owner.context.close();
  await world?.visitor.close();
});

/** Under load a screen takes up to half a minute, hence the long budget; each step has its own short waits. */
for (const size of [DESKTOP, PHONE]) {
  test(`axe finds no critical or serious violation on any screen at ${size.width} × ${size.height}`, async () => {
    test.setTimeout(1_200_000);
    const findings: Finding[] = [];
    await walkScreens(world, screens(world), size, shot, async (page, screen) => {
      const mine = await audit(page, screen.name);
      findings.push(...mine);
      const bad = blocking(mine);
      expect.soft(bad, `${screen.name}: critical or serious violations:\n${describe(bad)}`).toEqual([]);
      expect.soft(await structure(page, screen.name), `${screen.name}: landmarks, headings, title`).toEqual([]);
    });
    saveFindings(size.name, findings);
    console.log(`axe at ${size.width} × ${size.height}, violations by rule:`, tally(findings));
  });
}

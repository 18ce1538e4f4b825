import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { jpeg } from "./assets-support.ts";
import { type E2EServer, startE2EServer } from "./hangar-server.ts";
import { screenshot } from "./screenshots.ts";

/**
 * Issue #13's first ten minutes, from a fresh data directory and no SMTP: sign up, read the
 * verification link through the dev outbox while Hangar runs (the CLI attaches to its database),
 * verify, land on the home page's first steps, upload, and see the upload on the home page.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const PASSWORD = "a long enough password";
let server: E2EServer | undefined;
let base = "";
let dataDir = "";

test.beforeAll(async () => {
  test.setTimeout(150_000);
  // No SMTP (the default): mails go to the dev outbox in the database.
  server = await startE2EServer({ label: "first-run", env: () => ({ AI_TAGS: "0" }) });
  base = server.baseUrl;
  dataDir = server.dataDir;
});
test.afterAll(async () => {
  await server?.stop();
});

test("sign up, verify through the dev outbox while Hangar runs, first steps, upload, see it at home", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  const email = `first-${Date.now()}@example.test`;
  await page.goto("/a/register");
  await page.getByLabel("First name").fill("Fiona");
  await page.getByLabel("Last name").fill("First");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  const confirm = page.getByLabel("Confirm password");
  if (await confirm.count()) await confirm.fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/a\/awaiting-verification/);

  // Another terminal: `npm run hangar -- outbox`, beside the running server.
  let link = "";
  await expect
    .poll(
      () => {
        const out = spawnSync("npm", ["run", "--silent", "hangar", "--", "outbox"], {
          cwd: ROOT,
          encoding: "utf8",
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
        });
        const found = new RegExp(`To: ${email.replace(/\./g, "\\.")}[\\s\\S]*?(http\\S*/a/verify-email/\\S+)`).exec(
          out.stdout,
        );
        link = found?.[1] ?? "";
        return link;
      },
      { timeout: 30_000, message: "the verification mail in the dev outbox" },
    )
    .toMatch(/\/a\/verify-email\//);
  await page.goto(link);
  await expect(page).toHaveURL(/\/w\/new/);
  await page.getByLabel("Workspace name").fill("First light");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page).toHaveURL(/\/w\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("first-steps")).toBeVisible();

  // Upload through the dialog, then back home: the upload is there.
  const file = path.join(server!.dir, "harbour.jpg");
  await import("node:fs/promises").then(async (fs) => fs.writeFile(file, await jpeg(4)));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Upload files" });
  await dialog.getByTestId("upload-files-input").setInputFiles(file);
  await expect(dialog.getByRole("listitem", { name: "harbour.jpg", exact: true })).toHaveAttribute(
    "data-status",
    /processing|COMPLETED/,
    { timeout: 60_000 },
  );
  const workspaceUrl = page.url().replace(/\/b\/.*$/, "");
  await expect
    .poll(
      async () => {
        await page.goto(workspaceUrl);
        // The home page has loaded its listing once either of these shows.
        await page.locator('[data-testid="recent-asset"], [data-testid="first-steps"]').first().waitFor();
        return page.getByTestId("recent-asset").count();
      },
      { timeout: 60_000, message: "the upload on the home page" },
    )
    .toBe(1);
  await expect(page.getByTestId("recent-asset")).toHaveAccessibleName("harbour.jpg");
  await screenshot(page, "first-run-home");
  await context.close();
});

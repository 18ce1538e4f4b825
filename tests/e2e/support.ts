import { readFileSync } from "node:fs";
import { expect, type Locator, type Page } from "@playwright/test";

export const baseUrl = () => {
  const u = process.env.HANGAR_E2E_URL;
  if (!u) throw new Error("HANGAR_E2E_URL is not set: run through scripts/e2e.mjs");
  return u;
};

/** Waits for a mail to `to` in the SMTP peer's mailbox and answers its first link to `pathPart`. */
export async function linkFromMail(to: string, pathPart: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      () => {
        const lines = readFileSync(process.env.HANGAR_E2E_MAILBOX!, "utf8").split("\n").filter(Boolean);
        for (const l of lines.reverse()) {
          const m = JSON.parse(l) as { to: string; text: string };
          const found = m.to === to ? new RegExp(`https?://\\S+${pathPart}\\S+`).exec(m.text) : null;
          if (found) {
            link = found[0];
            return true;
          }
        }
        return false;
      },
      { timeout: 20_000, message: `a mail to ${to} with a ${pathPart} link` },
    )
    .toBe(true);
  return link;
}

export const uniqueEmail = (p: string) =>
  `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;

/** A JSON call to /api/v1 through a page's context (its cookies), with the CSRF header on mutations. */
export async function api<T = unknown>(
  page: Page,
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (method !== "GET") {
    const csrf = await page.request.get(`${baseUrl()}/api/v1/users/set-csrf-token`);
    headers["X-CSRFToken"] = ((await csrf.json()) as { data: { csrftoken: string } }).data.csrftoken;
  }
  const res = await page.request.fetch(`${baseUrl()}/api/v1${path}`, { method, headers, data: body });
  if (!res.ok()) throw new Error(`${method} ${path} answered ${res.status()}: ${await res.text()}`);
  return (await res.json()) as T;
}

export const E2E_PASSWORD = "a long enough password";

/**
 * Registers a user through the API, follows the verify link from the real mail (which signs the page's
 * context in), and creates a workspace. Answers the e-mail and the workspace id.
 */
export async function signUpWithWorkspace(
  page: Page,
  opts: { prefix?: string; firstName?: string; workspaceName?: string } = {},
): Promise<{ email: string; workspaceId: string }> {
  const email = uniqueEmail(opts.prefix ?? "owner");
  await api(page, "POST", "/users/register", {
    email,
    password: E2E_PASSWORD,
    first_name: opts.firstName ?? "Olivia",
    last_name: "Owner",
  });
  const token = new URL(await linkFromMail(email, "/a/verify-email/")).pathname.split("/").pop()!;
  await api(page, "POST", `/users/verify-email/${token}`);
  const workspace = await api<{ id: string }>(page, "POST", "/workspaces", {
    name: opts.workspaceName ?? "Northwind Studio",
  });
  return { email, workspaceId: workspace.id };
}

/**
 * Invites a new person into a workspace with `role` (from `admin`'s context) and signs them up through the
 * invitation in `invitee`'s context, which ends up signed in as them.
 */
export async function inviteAndJoin(
  admin: Page,
  invitee: Page,
  workspaceId: string,
  role: "ADMIN" | "EDITOR" | "COMMENTER",
  firstName = "Casey",
): Promise<string> {
  const email = uniqueEmail(role.toLowerCase());
  await api(admin, "POST", `/workspaces/${workspaceId}/invites`, { email, role });
  const token = new URL(await linkFromMail(email, "/a/invite/")).pathname.split("/").pop()!;
  await api(invitee, "POST", "/users/register", {
    email,
    password: E2E_PASSWORD,
    first_name: firstName,
    invite_token: token,
  });
  return email;
}

/**
 * Opens a boards-panel row's "Board actions" menu with one click and picks `item`. Right after a
 * page load the click may land on the first-paint tree while the full one swaps in: one click is
 * still enough (boards-menu-reload.spec.ts).
 */
export async function boardMenu(page: Page, row: Locator, item: string) {
  const entry = page.getByRole("menuitem", { name: item });
  await row.hover();
  await row.getByRole("button", { name: "Board actions" }).click();
  await entry.click();
}

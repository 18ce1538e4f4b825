import { createHmac } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { audit, blocking, describe } from "./a11y-support.ts";
import { jpeg, newOwner, settled, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api } from "./support.ts";
import { stoppedMoving } from "./waits.ts";

/**
 * Issue 36, webhooks in the web: an ADMIN adds an endpoint in Settings → Webhooks (events chosen by
 * group), sees its signing secret once with the verification code, sends a test event to a real
 * receiver on this machine (the server allows 127.0.0.0/8), sees it in the endpoint's delivery log
 * with a real event after it, opens a delivery and redelivers it; a failing receiver shows in the
 * log. On a phone the endpoints and deliveries are cards.
 */
const shot = screenshots("webhooks");
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
}

async function receiver() {
  const hits: Hit[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status, { "content-type": "application/json" });
      res.end(status < 300 ? '{"received":true}' : '{"error":"try later"}');
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    hits,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hangar`,
    answer: (s: number) => {
      status = s;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The receiver's check, as docs/webhooks.md gives it: HMAC-SHA256 of `t.body` with the secret. */
function signed(secret: string, hit: Hit) {
  const header = String(hit.headers["hangar-signature"]);
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2)));
  return createHmac("sha256", secret).update(`${parts.t}.${hit.body}`).digest("hex") === parts.v1;
}

test("an ADMIN registers a webhook, sends a test event and sees the delivery log", async ({ browser }) => {
  test.setTimeout(180_000);
  const rec = await receiver();
  const owner = await newOwner(browser, "Hooks studio");
  const ws = owner.workspaceId;
  const { page } = owner;
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.goto(`/w/${ws}/settings/details`);
  await page.getByRole("tab", { name: "Webhooks" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${ws}/settings/webhooks$`));
  await expect(page.getByTestId("webhooks-empty")).toContainText("No webhook endpoints yet");
  await shot(page, "empty");

  // Add: a URL and events, chosen by group.
  await page.getByRole("button", { name: "Add endpoint" }).first().click();
  const form = page.getByRole("dialog", { name: "Add webhook endpoint" });
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText("URL is required")).toBeVisible();
  await expect(form.getByText("Choose at least one event")).toBeVisible();
  await form.getByRole("textbox", { name: "Endpoint URL" }).fill(rec.url);
  await form.getByRole("textbox", { name: "Description" }).fill("Our CMS");
  await form.getByRole("checkbox", { name: "Comments" }).check();
  await form.getByRole("checkbox", { name: /asset\.created/ }).check();
  await expect(form.getByRole("checkbox", { name: "Assets" })).toHaveJSProperty("indeterminate", true);
  await settled(form);
  await shot(page, "add-dialog");
  await form.getByRole("button", { name: "Add endpoint" }).click();

  // The secret, once, with how to check a signature.
  const reveal = page.getByRole("dialog", { name: "Webhook endpoint added" });
  await expect(reveal.getByText("This is the only time the signing secret is shown")).toBeVisible();
  const secret = (await reveal.getByTestId("webhook-secret").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  await expect(reveal.getByTestId("webhook-verify-snippet")).toContainText("export function verifyHangarSignature");
  await settled(reveal);
  const findings = blocking(await audit(page, "webhook-secret-dialog"));
  expect(findings, describe(findings)).toEqual([]);
  await shot(page, "secret-dialog");
  await reveal.getByRole("button", { name: "Done" }).click();
  await expect(reveal).toBeHidden();

  const row = page.getByTestId("webhook-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("webhook-state")).toHaveText("Enabled");
  await expect(row).toContainText("None yet");
  expect(await page.content()).not.toContain(secret);
  const listFindings = blocking(await audit(page, "webhooks-list"));
  expect(listFindings, describe(listFindings)).toEqual([]);
  await shot(page, "list");

  // The endpoint's page: no deliveries yet; a test event arrives, signed, and is logged.
  await row.getByRole("link", { name: rec.url }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${ws}/settings/webhooks/[0-9a-f-]{36}$`));
  await expect(page.getByTestId("deliveries-empty")).toContainText("No deliveries yet");
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText("Test event delivered: the endpoint answered 200")).toBeVisible();
  const logRows = page.getByTestId("delivery-row");
  await expect(logRows).toHaveCount(1);
  await expect(logRows.first()).toContainText("webhook.test");
  await expect(logRows.first().getByTestId("delivery-status")).toHaveText("Delivered");
  expect(rec.hits).toHaveLength(1);
  expect(JSON.parse(rec.hits[0]!.body)).toMatchObject({ type: "webhook.test", workspace_id: ws });
  expect(signed(secret, rec.hits[0]!)).toBe(true);

  // A real event: a comment on an asset reaches the receiver and the log.
  const asset = await uploadAsset(page, ws, "hook.jpg", await jpeg(3));
  await expect.poll(() => rec.hits.some((h) => JSON.parse(h.body).type === "asset.created")).toBe(true);
  await api(page, "POST", `/workspaces/${ws}/comments`, { content_type: "asset", object_id: asset, text: "Ship it" });
  await expect.poll(() => rec.hits.some((h) => JSON.parse(h.body).type === "comment.created")).toBe(true);
  for (const hit of rec.hits) expect(signed(secret, hit)).toBe(true);
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(logRows).toHaveCount(3);
  await expect(logRows.first()).toContainText("comment.created");
  await stoppedMoving(page.getByTestId("deliveries-table"));
  const pageFindings = blocking(await audit(page, "webhook-endpoint"));
  expect(pageFindings, describe(pageFindings)).toEqual([]);
  await shot(page, "endpoint");

  // A delivery's details, and Redeliver: the same event again, logged on its own.
  await logRows
    .first()
    .getByRole("button", { name: /Details of comment\.created/ })
    .click();
  const detail = page.getByRole("dialog", { name: "Delivery" });
  await expect(detail.getByTestId("delivery-request")).toContainText('"type": "comment.created"');
  await expect(detail.getByTestId("delivery-response")).toContainText('"received": true');
  await settled(detail);
  await shot(page, "delivery-dialog");
  await detail.getByRole("button", { name: "Redeliver" }).click();
  await expect(page.getByText("Redelivered: the endpoint answered 200")).toBeVisible();
  await detail.getByTestId("delivery-dialog").getByRole("button", { name: "Close" }).click();
  await expect(logRows).toHaveCount(4);
  await expect(logRows.first()).toContainText("Redelivery");
  const [sent, again] = rec.hits.filter((h) => JSON.parse(h.body).type === "comment.created");
  expect(again!.headers["hangar-event-id"]).toBe(sent!.headers["hangar-event-id"]);

  // A receiver that fails: the test event says so and the log shows it.
  rec.answer(500);
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText("The endpoint answered 500.")).toBeVisible();
  await expect(logRows).toHaveCount(5);
  await expect(logRows.first().getByTestId("delivery-status")).toHaveText("Failed");
  await expect(logRows.first()).toContainText("500");
  await shot(page, "endpoint-failed");

  // A phone: cards, nothing wider than the screen, the settings tabs on one line.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("deliveries-table").locator("table")).toHaveCount(0);
  await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(390);
  await shot(page, "endpoint-phone");
  await logRows.first().click();
  await expect(detail.getByTestId("delivery-request")).toContainText('"type": "webhook.test"');
  await settled(detail);
  await shot(page, "delivery-dialog-phone");
  await detail.getByTestId("delivery-dialog").getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit webhook endpoint" });
  await expect(edit.getByRole("checkbox", { name: /comment\.resolved/ })).toBeChecked();
  await settled(edit);
  await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(390);
  await shot(page, "edit-dialog-phone");
  await edit.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("link", { name: "All webhooks" }).click();
  await expect(page.getByTestId("webhooks-table").locator("table")).toHaveCount(0);
  await expect(row).toBeVisible();
  await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(390);
  // The tabs, seven for an ADMIN (Details, Subscription, Fields, Share links, API keys, Webhooks,
  // Audit log), stay on one line.
  const tabs = page.getByRole("tab");
  await expect(tabs).toHaveCount(7);
  const tabLines = () =>
    tabs.evaluateAll((els) => new Set(els.map((el) => Math.round(el.getBoundingClientRect().top))).size);
  await expect.poll(tabLines, { message: "the settings tabs on one line" }).toBe(1);
  await shot(page, "list-phone");

  await owner.context.close();
  await rec.close();
});

import { readFileSync } from "node:fs";
import path from "node:path";
import {
  CreateWebhookBody,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryDetail,
  type Workspace,
  webhooksApi,
} from "@hangar/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { Route, Routes } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { WorkspaceContext } from "../../../entities/workspace";
import { ApiError } from "../../../lib/api-client";
import { DeferredModals } from "../../../lib/confirm-modal";
import { failure, installFakeApi } from "../../../test/fake-api";
import { anId, WORKSPACE_ID } from "../../../test/fixtures";
import { renderWithApp } from "../../../test/render";
import { webhookFormErrors } from "../dialogs/webhook-form-dialog";
import { deliverySummary, VERIFY_SNIPPET } from "../events";
import { SettingsWebhooksPage } from "./settings-webhooks-page";
import { WebhookPage } from "./webhook-page";

const api = installFakeApi();

const aHook = (over: Partial<Webhook> = {}): Webhook =>
  Webhook.parse({
    id: anId(),
    url: "https://cms.example/hangar",
    description: "CMS sync",
    events: ["asset.created", "asset.updated", "comment.created", "member.added"],
    enabled: true,
    state: "enabled",
    failing_since: null,
    disabled_reason: null,
    created_by: { id: anId(), name: "Olivia Owner", email: "olivia@example.test" },
    created_at: "2026-03-01T10:00:00.000Z",
    last_delivery: null,
    ...over,
  });

const aDelivery = (over: Partial<WebhookDelivery> = {}): WebhookDelivery =>
  WebhookDelivery.parse({
    id: anId(),
    event_id: anId(),
    type: "asset.created",
    status: "delivered",
    attempts: 1,
    response_status: 200,
    response_body: "ok",
    error: null,
    duration_ms: 42,
    created_at: "2026-03-02T10:00:00.000Z",
    last_attempt_at: "2026-03-02T10:00:01.000Z",
    next_attempt_at: null,
    delivered_at: "2026-03-02T10:00:01.000Z",
    is_test: false,
    redelivery_of: null,
    ...over,
  });

function renderAt(route: string, role: Workspace["user_role"] = "ADMIN") {
  const workspace = { id: WORKSPACE_ID, name: "Studio", user_role: role } as Workspace;
  return renderWithApp(
    <WorkspaceContext.Provider value={workspace}>
      <Routes>
        <Route path="/w/:workspaceId/settings/webhooks" element={<SettingsWebhooksPage />} />
        <Route path="/w/:workspaceId/settings/webhooks/:hookId" element={<WebhookPage />} />
      </Routes>
      <DeferredModals />
    </WorkspaceContext.Provider>,
    { route },
  );
}
const LIST = `/w/${WORKSPACE_ID}/settings/webhooks`;

describe("Settings → Webhooks", () => {
  it("lists endpoints with their events, status and last delivery", async () => {
    api.on(webhooksApi.list, () => ({
      data: [
        aHook({ last_delivery: { status: "delivered", response_status: 204, at: "2026-03-02T10:00:00.000Z" } }),
        aHook({ url: "https://down.example/x", state: "failing", failing_since: "2026-03-02T09:00:00.000Z" }),
        aHook({ url: "https://off.example/x", enabled: false, state: "disabled" }),
      ],
    }));
    renderAt(LIST);
    const rows = await screen.findAllByTestId("webhook-row");
    expect(rows).toHaveLength(3);
    const [ok, failing, off] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(ok).getByRole("link", { name: "https://cms.example/hangar" }).getAttribute("href")).toMatch(
      new RegExp(`^/w/${WORKSPACE_ID}/settings/webhooks/[0-9a-f-]{36}$`),
    );
    expect(within(ok).getByText("asset.created")).toBeTruthy();
    expect(within(ok).getByText("+1 more")).toBeTruthy();
    expect(within(ok).getByTestId("webhook-state").textContent).toBe("Enabled");
    expect(within(ok).getByText("204")).toBeTruthy();
    expect(within(failing).getByTestId("webhook-state").textContent).toBe("Failing");
    expect(within(off).getByTestId("webhook-state").textContent).toBe("Disabled");
    expect(within(off).getByText("None yet")).toBeTruthy();
    expect(within(off).getByRole("switch", { name: "Enabled: https://off.example/x" })).toBeTruthy();
  });

  it("explains webhooks when there are none, shows a failed list with Retry, and tells non-admins", async () => {
    api.on(webhooksApi.list, () => ({ data: [] }));
    const first = renderAt(LIST);
    expect((await screen.findByTestId("webhooks-empty")).textContent).toContain("No webhook endpoints yet");
    first.unmount();
    api.on(webhooksApi.list, failure(500, "Database unavailable"));
    const second = renderAt(LIST);
    expect(await screen.findByText("Database unavailable")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
    second.unmount();
    api.reset();
    renderAt(LIST, "EDITOR");
    expect(screen.getByTestId("webhooks-admins-only").textContent).toContain("Only admins manage webhooks");
    expect(api.callsTo(webhooksApi.list)).toHaveLength(0);
  });

  it("checks the URL and the events before asking the server", async () => {
    api.on(webhooksApi.list, () => ({ data: [] }));
    const { user } = renderAt(LIST);
    await user.click(await screen.findByRole("button", { name: "Add endpoint" }));
    const form = await screen.findByTestId("webhook-form");
    await user.click(within(form).getByRole("button", { name: "Add endpoint" }));
    expect(await within(form).findByText("URL is required")).toBeTruthy();
    expect(within(form).getByText("Choose at least one event")).toBeTruthy();
    // Pasted, as a URL usually is (typing re-renders the dialog's 20 checkboxes per key).
    await user.click(within(form).getByRole("textbox", { name: /Endpoint URL/ }));
    await user.paste("ftp://nope");
    await user.click(within(form).getByRole("button", { name: "Add endpoint" }));
    expect(await within(form).findByText("Enter an http:// or https:// URL.")).toBeTruthy();
    expect(api.callsTo(webhooksApi.create)).toHaveLength(0);
  });

  it("adds an endpoint with events chosen by group, and shows its secret once with the verification code", async () => {
    let hooks: Webhook[] = [];
    api.on(webhooksApi.list, () => ({ data: hooks }));
    api.on(webhooksApi.create, (call) => {
      const body = CreateWebhookBody.parse(call.body);
      const hook = aHook({ url: body.url, events: body.events, description: body.description ?? "" });
      hooks = [hook];
      return { ...hook, secret: "whsec_test" };
    });
    const { user } = renderAt(LIST);
    await screen.findByTestId("webhooks-empty");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    const form = await screen.findByTestId("webhook-form");
    await user.click(within(form).getByRole("textbox", { name: /Endpoint URL/ }));
    await user.paste("https://cms.example/in");
    // By label: role queries weigh every checkbox's accessible name (a second each on busy cores).
    await user.click(within(form).getByLabelText("Comments"));
    await user.click(within(form).getByLabelText(/member\.removed/));
    expect((within(form).getByLabelText("Members") as HTMLInputElement).indeterminate).toBe(true);
    await user.click(within(form).getByRole("button", { name: "Add endpoint" }));

    const dialog = await screen.findByTestId("webhook-secret-dialog");
    expect(within(dialog).getByTestId("webhook-secret").textContent).toBe("whsec_test");
    expect(dialog.textContent).toContain("This is the only time the signing secret is shown");
    expect(within(dialog).getByTestId("webhook-verify-snippet").textContent).toBe(VERIFY_SNIPPET);
    expect(api.callsTo(webhooksApi.create).map((c) => c.body)).toEqual([
      {
        url: "https://cms.example/in",
        events: ["comment.created", "comment.resolved", "member.removed"],
        description: "",
      },
    ]);
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByTestId("webhook-secret-dialog")).toBeNull());
    expect(await screen.findByTestId("webhook-row")).toBeTruthy();
  });

  it("an endpoint's page sends a test event, shows the log and a delivery, and redelivers it", async () => {
    const hook = aHook({ state: "failing", failing_since: "2026-03-02T09:00:00.000Z" });
    const failed = aDelivery({
      type: "comment.created",
      status: "pending",
      attempts: 3,
      response_status: 503,
      response_body: "busy",
      error: "The endpoint answered 503.",
      next_attempt_at: "2026-03-02T10:10:00.000Z",
      delivered_at: null,
    });
    let log: WebhookDelivery[] = [failed];
    api.on(webhooksApi.get, () => hook);
    api.on(webhooksApi.deliveries, () => ({ data: log, next_cursor: null }));
    api.on(webhooksApi.delivery, () => WebhookDeliveryDetail.parse({ ...failed, request_body: '{"id":"e1"}' }));
    api.on(webhooksApi.test, () => {
      const d = aDelivery({ type: "webhook.test", is_test: true });
      log = [d, ...log];
      return { ...d, request_body: "{}" };
    });
    api.on(webhooksApi.redeliver, () => {
      const d = aDelivery({ type: "comment.created", redelivery_of: failed.id });
      log = [d, ...log];
      return { ...d, request_body: '{"id":"e1"}' };
    });
    const { user } = renderAt(`${LIST}/${hook.id}`);
    expect(await screen.findByText("Deliveries are failing")).toBeTruthy();
    const [row] = await screen.findAllByTestId("delivery-row");
    expect(within(row!).getByTestId("delivery-status").textContent).toBe("Retrying (3 attempts)");
    expect(within(row!).getByText("503")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Send test event" }));
    expect(await screen.findByText("Test event delivered: the endpoint answered 200")).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId("delivery-row")).toHaveLength(2));

    const [, older] = screen.getAllByTestId("delivery-row");
    await user.click(within(older!).getByRole("button", { name: /Details of comment\.created/ }));
    const dialog = await screen.findByTestId("delivery-dialog");
    expect(dialog.textContent).toContain("The endpoint answered 503.");
    expect(within(dialog).getByTestId("delivery-response").textContent).toBe("busy");
    expect((await within(dialog).findByTestId("delivery-request")).textContent).toBe('{\n  "id": "e1"\n}');
    await user.click(within(dialog).getByRole("button", { name: "Redeliver" }));
    expect(await screen.findByText("Redelivered: the endpoint answered 200")).toBeTruthy();
    expect(api.callsTo(webhooksApi.redeliver).map((c) => c.params.deliveryId)).toEqual([failed.id]);
    await waitFor(() => expect(screen.getAllByTestId("delivery-row")).toHaveLength(3));
  });

  it("says when an endpoint is gone", async () => {
    api.on(webhooksApi.get, failure(404, "Webhook endpoint not found."));
    api.on(webhooksApi.deliveries, failure(404, "Webhook endpoint not found."));
    renderAt(`${LIST}/${anId()}`);
    expect(await screen.findByText("Webhook not found")).toBeTruthy();
    expect(screen.getByRole("link", { name: "All webhooks" }).getAttribute("href")).toBe(LIST);
  });
});

describe("webhook helpers", () => {
  it("shows docs/webhooks.md's verification code, word for word", () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, "../../../../../../docs/webhooks.md"), "utf8");
    expect(/```js verify\n([\s\S]*?)```/.exec(doc)?.[1]).toBe(VERIFY_SNIPPET);
  });

  it("puts the server's 422 on the form's fields and says how a delivery stands", () => {
    const error = new ApiError({
      status: 422,
      detail: "Validation failed",
      errors: [
        { field: "body.url", message: "Webhooks may not call 10.0.0.1, a private address" },
        { field: "body.events.1", message: "Invalid option" },
      ],
    });
    expect(webhookFormErrors(error)).toEqual({
      url: "Webhooks may not call 10.0.0.1, a private address",
      events: "Invalid option",
    });
    expect(deliverySummary({ status: "pending", attempts: 0 })).toBe("Retrying");
    expect(deliverySummary({ status: "pending", attempts: 2 })).toBe("Retrying (2 attempts)");
    expect(deliverySummary({ status: "failed", attempts: 9 })).toBe("Failed");
  });
});

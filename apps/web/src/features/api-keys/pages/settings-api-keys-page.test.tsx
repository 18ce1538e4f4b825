import { ApiKey, ApiKeyCreated, apiKeysApi, CreateApiKeyBody, type Workspace } from "@hangar/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { WorkspaceContext } from "../../../entities/workspace";
import { ApiError } from "../../../lib/api-client";
import { DeferredModals } from "../../../lib/confirm-modal";
import { failure, installFakeApi } from "../../../test/fake-api";
import { anId, WORKSPACE_ID } from "../../../test/fixtures";
import { renderWithApp } from "../../../test/render";
import { createKeyErrors } from "../dialogs/create-api-key-dialog";
import { curlExample, expiryFromDate, keyState } from "../scopes";
import { SettingsApiKeysPage } from "./settings-api-keys-page";

const api = installFakeApi();
const DAY = 86_400_000;

const aKey = (over: Partial<ApiKey> = {}): ApiKey =>
  ApiKey.parse({
    id: anId(),
    name: "Website sync",
    prefix: "hgr_AbCdEfGh",
    scopes: ["assets:read"],
    created_by: { id: anId(), name: "Olivia Owner", email: "olivia@example.test" },
    created_at: "2026-03-01T10:00:00.000Z",
    last_used_at: null,
    expires_at: null,
    revoked_at: null,
    ...over,
  });

function renderPage(role: Workspace["user_role"] = "ADMIN") {
  const workspace = { id: WORKSPACE_ID, name: "Studio", user_role: role } as Workspace;
  return renderWithApp(
    <WorkspaceContext.Provider value={workspace}>
      <SettingsApiKeysPage />
      <DeferredModals />
    </WorkspaceContext.Provider>,
  );
}

describe("Settings → API keys", () => {
  it("lists keys with their scopes, use, expiry and state", async () => {
    api.on(apiKeysApi.list, () => ({
      data: [
        aKey({ scopes: ["assets:read", "comments:write"] }),
        aKey({ name: "Old CI", expires_at: new Date(Date.now() - DAY).toISOString() }),
        aKey({ name: "Leaked", revoked_at: "2026-03-02T10:00:00.000Z", last_used_at: "2026-03-02T09:00:00.000Z" }),
      ],
    }));
    renderPage();
    const rows = await screen.findAllByTestId("api-key-row");
    expect(rows).toHaveLength(3);
    const [live, expired, revoked] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(live).getByText("assets:read")).toBeTruthy();
    expect(within(live).getByText("comments:write")).toBeTruthy();
    expect(within(live).getByText("hgr_AbCdEfGh…")).toBeTruthy();
    expect(within(live).getByText("Olivia Owner")).toBeTruthy();
    expect(within(live).getAllByText("Never")).toHaveLength(2);
    expect(within(live).getByTestId("api-key-state").textContent).toBe("Active");
    expect(within(expired).getByTestId("api-key-state").textContent).toBe("Expired");
    expect(within(revoked).getByTestId("api-key-state").textContent).toBe("Revoked");
    // A revoked key has nothing left to revoke.
    expect(within(revoked).queryByRole("button", { name: "Revoke Leaked" })).toBeNull();
    expect(within(live).getByRole("button", { name: "Revoke Website sync" })).toBeTruthy();
  });

  it("says what keys are for when there are none, with the API docs", async () => {
    api.on(apiKeysApi.list, () => ({ data: [] }));
    renderPage();
    const empty = await screen.findByTestId("api-keys-empty");
    expect(empty.textContent).toContain("No API keys yet");
    expect(within(empty).getByRole("link", { name: "Hangar API" }).getAttribute("href")).toBe("/api/docs");
  });

  it("shows a failed list with Retry", async () => {
    api.on(apiKeysApi.list, failure(500, "Database unavailable"));
    renderPage();
    expect(await screen.findByText("Database unavailable")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
  });

  it("tells a non-admin that only admins manage keys, and asks the server nothing", async () => {
    renderPage("EDITOR");
    expect(screen.getByTestId("api-keys-admins-only").textContent).toContain("Only admins manage API keys");
    expect(api.callsTo(apiKeysApi.list)).toHaveLength(0);
  });

  it("creates a key with the chosen scopes and shows its secret once, with a curl call", async () => {
    let keys: ApiKey[] = [];
    api.on(apiKeysApi.list, () => ({ data: keys }));
    api.on(apiKeysApi.create, (call) => {
      const body = CreateApiKeyBody.parse(call.body);
      const created = ApiKeyCreated.parse({ ...aKey({ name: body.name, scopes: body.scopes }), secret: "hgr_secret" });
      const { secret: _s, ...key } = created;
      keys = [key];
      return created;
    });
    const { user } = renderPage();
    await screen.findByTestId("api-keys-empty");
    await user.click(screen.getByRole("button", { name: "Create API key" }));
    const form = await screen.findByTestId("create-api-key-form");
    await user.click(within(form).getByRole("button", { name: "Create key" }));
    expect(await within(form).findByText("Name is required")).toBeTruthy();
    await user.type(within(form).getByRole("textbox", { name: /Name/ }), "Website sync");
    await user.click(within(form).getByRole("checkbox", { name: /comments:write/ }));
    await user.click(within(form).getByRole("button", { name: "Create key" }));

    const dialog = await screen.findByTestId("api-key-secret-dialog");
    expect(within(dialog).getByTestId("api-key-secret").textContent).toBe("hgr_secret");
    expect(dialog.textContent).toContain("This is the only time the key is shown");
    expect(within(dialog).getByTestId("api-key-curl").textContent).toContain(
      `Authorization: Bearer hgr_secret" -H "Content-Type: application/json" -d '{}' ${window.location.origin}/api/v1/workspaces/${WORKSPACE_ID}/assets`,
    );
    expect(api.callsTo(apiKeysApi.create).map((c) => c.body)).toEqual([
      { name: "Website sync", scopes: ["assets:read", "comments:write"], expires_at: null },
    ]);
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByTestId("api-key-secret-dialog")).toBeNull());
    expect(await screen.findByTestId("api-key-row")).toBeTruthy();
  });

  it("revokes a key after confirming", async () => {
    let keys = [aKey()];
    api.on(apiKeysApi.list, () => ({ data: keys }));
    api.on(apiKeysApi.revoke, () => {
      keys = keys.map((k) => ({ ...k, revoked_at: new Date().toISOString() }));
      return { status: "ok" as const };
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole("button", { name: "Revoke Website sync" }));
    await user.click(await screen.findByRole("button", { name: "Revoke key" }));
    expect(await screen.findByText("API key revoked")).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("api-key-state").textContent).toBe("Revoked"));
    expect(api.callsTo(apiKeysApi.revoke)).toHaveLength(1);
  });
});

describe("API key helpers", () => {
  it("puts the server's 422 on the form's fields, a scope's own error on scopes", () => {
    const error = new ApiError({
      status: 422,
      detail: "Validation failed",
      errors: [
        { field: "body.name", message: "Name is too long" },
        { field: "body.scopes.0", message: "Invalid option" },
        { field: "body.expires_at", message: "The expiry must be in the future" },
      ],
    });
    expect(createKeyErrors(error)).toEqual({
      name: "Name is too long",
      scopes: "Invalid option",
      expires_at: "The expiry must be in the future",
    });
  });

  it("reads the state, the expiry day's end and the curl call", () => {
    const now = Date.parse("2026-03-10T12:00:00Z");
    expect(keyState({ revoked_at: null, expires_at: null }, now)).toBe("active");
    expect(keyState({ revoked_at: null, expires_at: "2026-03-10T11:00:00Z" }, now)).toBe("expired");
    expect(keyState({ revoked_at: "2026-03-01T00:00:00Z", expires_at: null }, now)).toBe("revoked");
    expect(expiryFromDate("")).toBeNull();
    const end = new Date(expiryFromDate("2026-04-01")!);
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours(), end.getMinutes()]).toEqual([
      2026, 3, 1, 23, 59,
    ]);
    expect(curlExample("hgr_x", "https://dam.example", "ws")).toBe(
      `curl -H "Authorization: Bearer hgr_x" -H "Content-Type: application/json" -d '{}' https://dam.example/api/v1/workspaces/ws/assets`,
    );
  });
});

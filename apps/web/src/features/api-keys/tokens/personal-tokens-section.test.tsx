import { CreatePersonalTokenBody, PersonalToken, PersonalTokenCreated, personalTokensApi } from "@hangar/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DeferredModals } from "../../../lib/confirm-modal";
import { failure, installFakeApi } from "../../../test/fake-api";
import { anId } from "../../../test/fixtures";
import { renderWithApp } from "../../../test/render";
import { expiryInDays } from "../scopes";
import { PersonalTokens } from "./personal-tokens-section";

const api = installFakeApi();
const DAY = 86_400_000;

const aToken = (over: Partial<PersonalToken> = {}): PersonalToken =>
  PersonalToken.parse({
    id: anId(),
    name: "Backup script",
    prefix: "hgp_AbCdEfGh",
    scopes: ["admin"],
    created_at: "2026-03-01T10:00:00.000Z",
    last_used_at: null,
    expires_at: new Date(Date.now() + 30 * DAY).toISOString(),
    revoked_at: null,
    revoked_reason: null,
    ...over,
  });

const renderSection = () =>
  renderWithApp(
    <>
      <PersonalTokens />
      <DeferredModals />
    </>,
  );

describe("Account → Personal access tokens", () => {
  it("lists tokens: full access or scopes, use, state, why a token stopped", async () => {
    api.on(personalTokensApi.list, () => ({
      data: [
        aToken(),
        aToken({ name: "Reader", scopes: ["assets:read"], expires_at: new Date(Date.now() - DAY).toISOString() }),
        aToken({ name: "Old", revoked_at: "2026-03-02T10:00:00.000Z", revoked_reason: "password_changed" }),
      ],
    }));
    renderSection();
    const rows = await screen.findAllByTestId("personal-token-row");
    const [full, reader, old] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(full).getByText("full")).toBeTruthy();
    expect(within(full).getByText("hgp_AbCdEfGh…")).toBeTruthy();
    expect(within(full).getByText("Never")).toBeTruthy();
    expect(within(full).getByTestId("personal-token-state").textContent).toBe("Active");
    expect(within(reader).getByText("assets:read")).toBeTruthy();
    expect(within(reader).getByTestId("personal-token-state").textContent).toBe("Expired");
    expect(within(old).getByTestId("personal-token-state").textContent).toBe("Revoked");
    expect(old.textContent).toContain("Password changed");
    expect(within(old).queryByRole("button", { name: "Revoke Old" })).toBeNull();
  });

  it("says what tokens are for when there are none, and shows a failed list with Retry", async () => {
    api.on(personalTokensApi.list, () => ({ data: [] }));
    const first = renderSection();
    expect((await screen.findByTestId("personal-tokens-empty")).textContent).toContain("No tokens yet");
    first.unmount();
    api.on(personalTokensApi.list, failure(500, "Database unavailable"));
    renderSection();
    expect(await screen.findByText("Database unavailable")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
  });

  it("creates a token with an expiry and, if asked, only some scopes; shows its secret once", async () => {
    let tokens: PersonalToken[] = [];
    api.on(personalTokensApi.list, () => ({ data: tokens }));
    api.on(personalTokensApi.create, (call) => {
      const body = CreatePersonalTokenBody.parse(call.body);
      const created = PersonalTokenCreated.parse({
        ...aToken({ name: body.name, scopes: body.scopes ?? ["admin"] }),
        secret: "hgp_secret",
      });
      const { secret: _s, ...token } = created;
      tokens = [token];
      return created;
    });
    const { user } = renderSection();
    await screen.findByTestId("personal-tokens-empty");
    await user.click(screen.getByRole("button", { name: "Create token" }));
    const form = await screen.findByTestId("create-token-form");
    await user.click(within(form).getByRole("button", { name: "Create token" }));
    expect(await within(form).findByText("Name is required")).toBeTruthy();
    await user.type(within(form).getByRole("textbox", { name: /Name/ }), "Reader");
    await user.click(within(form).getByRole("radio", { name: /Only some things/ }));
    await user.click(within(form).getByRole("checkbox", { name: /assets:read/ }));
    await user.click(within(form).getByRole("button", { name: "Create token" }));
    expect(await within(form).findByText("Choose at least one scope")).toBeTruthy();
    await user.click(within(form).getByRole("checkbox", { name: /comments:write/ }));
    await user.click(within(form).getByRole("button", { name: "Create token" }));

    const dialog = await screen.findByTestId("personal-token-secret-dialog");
    expect(within(dialog).getByTestId("personal-token-secret").textContent).toBe("hgp_secret");
    expect(dialog.textContent).toContain("This is the only time the token is shown");
    expect(within(dialog).getByTestId("personal-token-curl").textContent).toBe(
      `curl -H "Authorization: Bearer hgp_secret" ${window.location.origin}/api/v1/workspaces`,
    );
    const [sent] = api.callsTo(personalTokensApi.create).map((c) => c.body as CreatePersonalTokenBody);
    expect(sent).toMatchObject({ name: "Reader", scopes: ["comments:write"] });
    // 90 days unless chosen.
    const days = (Date.parse(sent!.expires_at!) - Date.now()) / DAY;
    expect(days).toBeGreaterThan(89);
    expect(days).toBeLessThan(91);
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByTestId("personal-token-secret-dialog")).toBeNull());
    expect(await screen.findByTestId("personal-token-row")).toBeTruthy();
  });

  it("revokes a token after confirming", async () => {
    let tokens = [aToken()];
    api.on(personalTokensApi.list, () => ({ data: tokens }));
    api.on(personalTokensApi.revoke, () => {
      tokens = tokens.map((t) => ({ ...t, revoked_at: new Date().toISOString() }));
      return { status: "ok" as const };
    });
    const { user } = renderSection();
    await user.click(await screen.findByRole("button", { name: "Revoke Backup script" }));
    await user.click(await screen.findByRole("button", { name: "Revoke token" }));
    expect(await screen.findByText("Personal access token revoked")).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("personal-token-state").textContent).toBe("Revoked"));
  });

  it("never asks for more than the server's year", () => {
    const now = new Date("2026-03-10T12:00:00");
    expect(Date.parse(expiryInDays(365, now)) - now.getTime()).toBeLessThanOrEqual(365 * DAY);
    expect(new Date(expiryInDays(7, now)).getDate()).toBe(17);
  });
});

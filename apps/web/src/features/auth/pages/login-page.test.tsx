import { ssoApi, usersApi } from "@hangar/contract";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { failure, installFakeApi } from "../../../test/fake-api";
import { renderWithApp } from "../../../test/render";
import { LoginPage } from "./login-page";

const api = installFakeApi();

function serve(options: { enabled: boolean; password: boolean }) {
  api.on(usersApi.me, failure(401));
  api.on(ssoApi.options, {
    data: { sso: { enabled: options.enabled, button_text: "Sign in with Acme" }, password_enabled: options.password },
  });
}

describe("the login page and single sign-on", () => {
  it("offers the provider's button beside the password form, going back to ?next=", async () => {
    serve({ enabled: true, password: true });
    renderWithApp(<LoginPage />, { route: "/a/login?next=%2Fw%2Fabc" });
    const button = await screen.findByRole("link", { name: "Sign in with Acme" });
    expect(button.getAttribute("href")).toBe("/api/v1/auth/sso/start?next=%2Fw%2Fabc");
    expect(screen.getByLabelText(/E-mail/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Create an account" })).toBeTruthy();
  });

  it("hides the password form, sign-up and reset when the server allows only SSO", async () => {
    serve({ enabled: true, password: false });
    renderWithApp(<LoginPage />, { route: "/a/login" });
    await screen.findByRole("link", { name: "Sign in with Acme" });
    expect(screen.queryByLabelText(/E-mail/)).toBeNull();
    expect(screen.queryByRole("link", { name: "Create an account" })).toBeNull();
    expect(screen.queryByRole("link", { name: "Forgot password?" })).toBeNull();
  });

  it("shows a failed sign-in's reason from the callback; no button without SSO", async () => {
    serve({ enabled: false, password: true });
    renderWithApp(<LoginPage />, {
      route: `/a/login?sso_error=${encodeURIComponent("Only addresses at @acme.test can sign in here.")}`,
    });
    expect((await screen.findByTestId("sso-error")).textContent).toBe("Only addresses at @acme.test can sign in here.");
    await screen.findByLabelText(/E-mail/);
    expect(screen.queryByRole("link", { name: "Sign in with Acme" })).toBeNull();
  });
});

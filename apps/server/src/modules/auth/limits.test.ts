import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  createTestEnv,
  PASSWORD,
  signedInUser,
  type TestEnv,
  uniqueEmail,
  waitForOutboxMail,
  workspaceWith,
} from "../../../test/harness.ts";
import { LOGIN_LIMIT_ACCOUNT, LOGIN_LIMIT_ACCOUNT_ANY, MAIL_LIMIT_ACCOUNT } from "./service.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

const login = (c: Client, email: string, password: string) => c.post("/users/login", { email, password });

describe("login throttling targets the guesser, not the owner (issue 12 item 4)", () => {
  it("lets the owner sign in from another address while an attacker keeps guessing from one", async () => {
    const { email } = await signedInUser(env);
    const attacker = new Client(env.app);
    const codes: number[] = [];
    for (let i = 0; i < 20; i++) codes.push((await login(attacker, email, `wrong-${i}-password`)).statusCode);
    expect(codes.slice(0, LOGIN_LIMIT_ACCOUNT.max).every((s) => s === 401)).toBe(true);
    expect(codes.slice(LOGIN_LIMIT_ACCOUNT.max).every((s) => s === 429)).toBe(true);
    const owner = new Client(env.app);
    expect((await login(owner, email, PASSWORD)).statusCode).toBe(200);
    // The attacker goes on; the owner signs in again at once.
    expect((await login(attacker, email, "yet-another-guess")).statusCode).toBe(429);
    expect((await login(new Client(env.app), email, PASSWORD)).statusCode).toBe(200);
  });

  it("guesses from many addresses hold the account, but not for the owner's known device", async () => {
    const { email } = await signedInUser(env);
    const device = new Client(env.app);
    expect((await login(device, email, PASSWORD)).statusCode).toBe(200);
    expect(device.cookies.get("hangar_device")).toBeTruthy();
    let failures = 0;
    while (failures < LOGIN_LIMIT_ACCOUNT_ANY.max) {
      const bot = new Client(env.app);
      for (let i = 0; i < LOGIN_LIMIT_ACCOUNT.max && failures < LOGIN_LIMIT_ACCOUNT_ANY.max; i++, failures++)
        expect((await login(bot, email, `guess-${failures}-password`)).statusCode).toBe(401);
    }
    expect((await login(new Client(env.app), email, PASSWORD)).statusCode).toBe(429);
    expect((await login(device, email, PASSWORD)).statusCode).toBe(200);
    // A forged or foreign device cookie does not pass.
    const forger = new Client(env.app);
    forger.cookies.set("hangar_device", device.cookies.get("hangar_device")!.replace(/.$/, "x"));
    expect((await login(forger, email, PASSWORD)).statusCode).toBe(429);
  });
});

describe("the current password asked by account changes", () => {
  it("cannot be guessed at leisure from a signed-in session", async () => {
    const { client } = await signedInUser(env);
    const codes: number[] = [];
    for (let i = 0; i < LOGIN_LIMIT_ACCOUNT.max + 1; i++) {
      const body = { new_email: uniqueEmail("x"), current_password: `guess-${i}-password` };
      codes.push((await client.post("/users/change-email", body)).statusCode);
    }
    expect(codes.slice(0, LOGIN_LIMIT_ACCOUNT.max).every((s) => s === 422)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    const change = { current_password: PASSWORD, new_password: "another long password" };
    expect((await client.post("/users/change-password", change)).statusCode).toBe(429);
  });
});

describe("mail limits and inert user text (issue 12 item 3)", () => {
  it("limits invitations per recipient, keeps names out of the subject and escapes them in HTML", async () => {
    const { ws, admin } = await workspaceWith(env);
    const hostile = '<img src=x onerror="alert(1)">';
    expect((await admin.client.request("PUT", `/workspaces/${ws.id}`, { name: hostile })).statusCode).toBe(200);
    const email = uniqueEmail("invitee");
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await admin.client.post(`/workspaces/${ws.id}/invites`, { email, role: "EDITOR" });
      codes.push(res.statusCode);
      if (res.statusCode === 201) await admin.client.del(`/workspaces/${ws.id}/invites/${res.json().id}`);
    }
    expect(codes).toEqual([201, 201, 201, 429, 429]);
    const mail = await waitForOutboxMail(env, email, "invited you");
    expect(mail.subject).not.toContain("<");
    expect(mail.subject).not.toContain("Admin");
    expect(mail.text_body).toContain(hostile);
    expect(mail.html_body).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(mail.html_body).not.toContain("<img");
  });

  it("limits change-e-mail mails per account", async () => {
    const { client } = await signedInUser(env);
    const codes: number[] = [];
    for (let i = 0; i < MAIL_LIMIT_ACCOUNT.max + 2; i++) {
      const res = await client.post("/users/change-email", {
        new_email: uniqueEmail("next"),
        current_password: PASSWORD,
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, MAIL_LIMIT_ACCOUNT.max).every((s) => s === 200)).toBe(true);
    expect(codes.slice(MAIL_LIMIT_ACCOUNT.max)).toEqual([429, 429]);
  });

  it("forgot-password does the same work for known and unknown addresses, and limits mails per recipient", async () => {
    const { email } = await signedInUser(env);
    const known = await new Client(env.app).post("/users/forgot-password", { email });
    const unknown = await new Client(env.app).post("/users/forgot-password", { email: uniqueEmail() });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json().detail.replace(email, "X")).toBe(unknown.json().detail.replace(/\S+@\S+/, "X"));
    const mail = await waitForOutboxMail(env, email, "Reset");
    expect(mail.html_body).toContain("/a/reset-password?token=");
    // From many addresses, one recipient still gets at most MAIL_LIMIT_RECIPIENT mails an hour.
    for (let i = 0; i < 8; i++) await new Client(env.app).post("/users/forgot-password", { email });
    // The lookups run after each answer: wait until all nine have counted against the recipient.
    const counted = async () =>
      (
        await env.rt.db
          .selectFrom("rate_limits")
          .select("count")
          .where("key", "=", `mail:to:${email}`)
          .executeTakeFirst()
      )?.count ?? 0;
    for (let t = 0; t < 100 && (await counted()) < 9; t++) await new Promise((r) => setTimeout(r, 50));
    expect(await counted()).toBe(9);
    const tokens = await env.rt.db
      .selectFrom("email_tokens as t")
      .innerJoin("users as u", "u.id", "t.user_id")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("u.email", "=", email)
      .where("t.purpose", "=", "reset_password")
      .executeTakeFirstOrThrow();
    expect(Number(tokens.n)).toBe(5);
  });
});

import { randomUUID } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  createTestEnv,
  PASSWORD,
  signedInUser,
  type TestEnv,
  uniqueEmail,
  workspaceWith,
} from "../../test/harness.ts";
import {
  LOGIN_LIMIT_ACCOUNT,
  LOGIN_LIMIT_ACCOUNT_ANY,
  LOGIN_LIMIT_IP,
  MAIL_LIMIT,
  MAIL_LIMIT_ACCOUNT,
} from "../modules/auth/service.ts";
import { INVITE_LIMIT_ACCOUNT, INVITE_LIMIT_RECIPIENT } from "../modules/members/service.ts";
import { VISITOR_WRITES } from "../modules/shares/public-service.ts";

/**
 * Issue 27: every limiter counts first, in one statement, and decides on the count it took. For each
 * one, 200 requests at once through the real app: exactly as many pass as the limit allows (a fresh
 * counter), every other one is the limiter's 429 with its text and a Retry-After, and where only
 * failures count (passwords), the right password is then refused too until the window ends.
 */
const N = 200;
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

type Res = LightMyRequestResponse;
const SIGN_IN = "Too many sign-in attempts. Wait a few minutes and try again.";
const WRONG_PASSWORDS = "Too many wrong passwords. Wait a few minutes and try again.";
const MAILS = "Too many e-mails requested. Try again later.";
const INVITES = "Too many invitations sent. Try again later.";
const ATTEMPTS = "Too many attempts. Try again later.";
const WRITES = "Too many comments or edits from here. Try again later.";

/** A client at a given address (the per-address limits), with its CSRF token fetched once. */
async function at(ip: string, from?: Client): Promise<Client> {
  const c = new Client(env.app);
  Object.defineProperty(c, "ip", { value: ip });
  if (from) for (const [k, v] of from.cookies) c.cookies.set(k, v);
  await c.fetchCsrf();
  return c;
}
const addr = () => `10.77.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
let n = 0;
const distinctAddr = () => `10.88.${Math.floor(++n / 250)}.${1 + (n % 250)}`;
const badToken = () => randomUUID().replace(/-/g, "").padEnd(43, "x");

/** A workspace with a board holding one (already processed) asset, for links to share. */
async function sharedAsset() {
  const w = await workspaceWith(env);
  const ws = w.ws.id;
  const c = w.admin.client;
  const board = (await c.post(`/workspaces/${ws}/boards`, { name: "Launch" })).json().id as string;
  const asset = await env.rt.db
    .insertInto("assets")
    .values({ workspace_id: ws, name: "hero.jpg", status: "COMPLETED", is_temp: false, file_type: "IMAGE" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await env.rt.db.insertInto("board_assets").values({ board_id: board, asset_id: asset.id }).execute();
  return { ws, c, board, asset: asset.id, admin: w.admin };
}
async function boardLink(c: Client, ws: string, board: string, body: Record<string, unknown>) {
  const res = await c.put(`/workspaces/${ws}/share/board/${board}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}
/** A counter already part-way through its window's allowance. */
const prefill = (key: string, count: number) =>
  env.rt.db.insertInto("rate_limits").values({ key, window_start: new Date(), count }).execute();
const withPassword = (c: Client, url: string, password: string) =>
  c.request("GET", url, undefined, { headers: { "x-share-password": password } });

interface Case {
  name: string;
  /** How many of the N may pass (the counter is fresh, so exactly this many do). */
  max: number;
  /** The status of an attempt that was let through (and counted). */
  passed: number;
  /** The exact 429 text. */
  refused: string;
  /** Another limit on the same requests, whose refusals may be mixed in; then only `max` bounds the passes. */
  alsoRefused?: string;
  arrange(): Promise<{ fire(i: number): Promise<Res>; thenRight?: () => Promise<Res> }>;
}

const cases: Case[] = [
  {
    name: "sign-in: wrong passwords for one account from one address",
    max: LOGIN_LIMIT_ACCOUNT.max,
    passed: 401,
    refused: SIGN_IN,
    async arrange() {
      const { email } = await signedInUser(env);
      const c = await at(addr());
      return {
        fire: (i) => c.post("/users/login", { email, password: `wrong-${i}-password` }),
        thenRight: () => c.post("/users/login", { email, password: PASSWORD }),
      };
    },
  },
  {
    name: "sign-in: wrong passwords from one address",
    max: LOGIN_LIMIT_IP.max,
    passed: 401,
    refused: SIGN_IN,
    async arrange() {
      const { email } = await signedInUser(env);
      const c = await at(addr());
      return {
        fire: () => c.post("/users/login", { email: uniqueEmail("nobody"), password: "wrong-password" }),
        thenRight: () => c.post("/users/login", { email, password: PASSWORD }),
      };
    },
  },
  {
    name: "sign-in: wrong passwords for one account from many addresses",
    max: LOGIN_LIMIT_ACCOUNT_ANY.max,
    passed: 401,
    refused: SIGN_IN,
    async arrange() {
      const { email } = await signedInUser(env);
      const clients = await Promise.all(Array.from({ length: N }, () => at(distinctAddr())));
      const owner = await at(distinctAddr());
      return {
        fire: (i) => clients[i]!.post("/users/login", { email, password: `wrong-${i}-password` }),
        thenRight: () => owner.post("/users/login", { email, password: PASSWORD }),
      };
    },
  },
  {
    name: "sign-ups from one address",
    max: 20, // REGISTRATIONS_PER_IP_PER_HOUR's default
    passed: 200,
    refused: "Too many sign-ups from here. Try again later.",
    async arrange() {
      const c = await at(addr());
      return {
        fire: () =>
          c.post("/users/register", { email: uniqueEmail("new"), password: "a long enough password", first_name: "N" }),
      };
    },
  },
  {
    name: "password-reset mails asked from one address",
    max: MAIL_LIMIT.max,
    passed: 200,
    refused: MAILS,
    async arrange() {
      const c = await at(addr());
      return { fire: () => c.post("/users/forgot-password", { email: uniqueEmail("reset") }) };
    },
  },
  {
    name: "verification mails asked from one address",
    max: MAIL_LIMIT.max,
    passed: 200,
    refused: MAILS,
    async arrange() {
      const c = await at(addr());
      return { fire: () => c.post("/users/resend-verification", { email: uniqueEmail("verify") }) };
    },
  },
  {
    name: "the current password asked by an account change, per session",
    max: LOGIN_LIMIT_ACCOUNT.max,
    passed: 422,
    refused: WRONG_PASSWORDS,
    async arrange() {
      const { client } = await signedInUser(env);
      await client.fetchCsrf();
      return {
        fire: (i) =>
          client.post("/users/change-password", {
            current_password: `guess-${i}-pw`,
            new_password: "next long password",
          }),
        thenRight: () =>
          client.post("/users/change-password", { current_password: PASSWORD, new_password: "next long password" }),
      };
    },
  },
  {
    name: "change-e-mail mails per account (the counter 2 short of the limit)",
    max: 2,
    passed: 200,
    refused: MAILS,
    // The current-password check holds a slot on its own limit while it verifies.
    alsoRefused: WRONG_PASSWORDS,
    async arrange() {
      const { client, user } = await signedInUser(env);
      await prefill(`mail:acct:${user.id}`, MAIL_LIMIT_ACCOUNT.max - 2);
      await client.fetchCsrf();
      return {
        fire: () => client.post("/users/change-email", { new_email: uniqueEmail("next"), current_password: PASSWORD }),
      };
    },
  },
  {
    name: "invitations to one address",
    max: INVITE_LIMIT_RECIPIENT.max,
    passed: 201,
    refused: INVITES,
    async arrange() {
      const { ws, admin } = await workspaceWith(env);
      await admin.client.fetchCsrf();
      const email = uniqueEmail("invitee");
      return { fire: () => admin.client.post(`/workspaces/${ws.id}/invites`, { email, role: "EDITOR" }) };
    },
  },
  {
    name: "invitations sent by one member",
    max: INVITE_LIMIT_ACCOUNT.max,
    passed: 201,
    refused: INVITES,
    async arrange() {
      const { ws, admin } = await workspaceWith(env);
      await admin.client.fetchCsrf();
      return {
        fire: () => admin.client.post(`/workspaces/${ws.id}/invites`, { email: uniqueEmail("inv"), role: "EDITOR" }),
      };
    },
  },
  {
    name: "share-link passwords from one address",
    max: 5,
    passed: 401,
    refused: ATTEMPTS,
    async arrange() {
      const { ws, c, board } = await sharedAsset();
      const token = await boardLink(c, ws, board, { password: "right-one" });
      const v = await at(addr());
      return {
        fire: (i) => withPassword(v, `/api/v1/share/${token}`, `guess-${i}`),
        thenRight: () => withPassword(v, `/api/v1/share/${token}`, "right-one"),
      };
    },
  },
  {
    name: "share-link passwords for one link from many addresses",
    max: 100,
    passed: 401,
    refused: ATTEMPTS,
    async arrange() {
      const { ws, c, board } = await sharedAsset();
      const token = await boardLink(c, ws, board, { password: "right-one" });
      const visitors = await Promise.all(Array.from({ length: N }, () => at(distinctAddr())));
      const late = await at(distinctAddr());
      return {
        fire: (i) => withPassword(visitors[i]!, `/api/v1/share/${token}`, `guess-${i}`),
        thenRight: () => withPassword(late, `/api/v1/share/${token}`, "right-one"),
      };
    },
  },
  {
    name: "share-link passwords from one address across links",
    max: 20,
    passed: 401,
    refused: ATTEMPTS,
    async arrange() {
      const { ws, c } = await sharedAsset();
      const tokens: string[] = [];
      for (let i = 0; i < 10; i++) {
        const b = (await c.post(`/workspaces/${ws}/boards`, { name: `B${i}` })).json().id as string;
        tokens.push(await boardLink(c, ws, b, { password: "right-one" }));
      }
      const v = await at(addr());
      return {
        fire: (i) => withPassword(v, `/api/v1/share/${tokens[i % tokens.length]}`, `guess-${i}`),
        thenRight: () => withPassword(v, `/api/v1/share/${tokens[0]}`, "right-one"),
      };
    },
  },
  {
    name: "request-link passwords from one address",
    max: 5,
    passed: 401,
    refused: ATTEMPTS,
    async arrange() {
      const { ws, c, board } = await sharedAsset();
      const res = await c.post(`/workspaces/${ws}/boards/${board}/file-requests`, { password: "open sesame" });
      const token = res.json().token as string;
      const v = await at(addr());
      return {
        fire: (i) => withPassword(v, `/api/v1/request/${token}`, `guess-${i}`),
        thenRight: () => withPassword(v, `/api/v1/request/${token}`, "open sesame"),
      };
    },
  },
  {
    name: "unknown share tokens from one address",
    max: 30,
    passed: 404,
    refused: ATTEMPTS,
    async arrange() {
      const v = await at(addr());
      return { fire: () => v.get(`/api/v1/share/${badToken()}`) };
    },
  },
  {
    name: "unknown request tokens from one address",
    max: 30,
    passed: 404,
    refused: ATTEMPTS,
    async arrange() {
      const v = await at(addr());
      return { fire: () => v.get(`/api/v1/request/${badToken()}`) };
    },
  },
  {
    name: "visitor comments from one address",
    max: VISITOR_WRITES.max,
    passed: 201,
    refused: WRITES,
    async arrange() {
      const { ws, c, board, asset } = await sharedAsset();
      const link = await c.put(`/workspaces/${ws}/share/asset/${asset}`, { board_id: board });
      const v = await at(addr());
      return { fire: (i) => v.post(`/api/v1/share/${link.json().token}/comments`, { text: `note ${i}` }) };
    },
  },
  {
    name: "visitor field edits from one address",
    max: VISITOR_WRITES.max,
    passed: 200,
    refused: WRITES,
    async arrange() {
      const { ws, c, board, asset } = await sharedAsset();
      const field = (await c.post(`/workspaces/${ws}/fields`, { title: "Note", field_type: "TEXT" })).json();
      const link = await c.put(`/workspaces/${ws}/share/asset/${asset}`, {
        board_id: board,
        show_custom_fields: true,
        allow_editing_custom_fields: true,
      });
      const v = await at(addr());
      return {
        fire: (i) => v.put(`/api/v1/share/${link.json().token}/custom-fields/${field.id}`, { text_value: `v${i}` }),
      };
    },
  },
  {
    name: "request-link files begun from one address (the counter at 450 of 500)",
    max: 50,
    passed: 200,
    refused: "Too many files from here. Try again later.",
    async arrange() {
      const { ws, c, board } = await sharedAsset();
      const res = await c.post(`/workspaces/${ws}/boards/${board}/file-requests`, { max_files: 1000 });
      const token = res.json().token as string;
      const v = await at(addr());
      await prefill(`request-start:${v.ip}`, 450);
      const visit = { "x-request-visit": randomUUID() };
      return {
        fire: (i) =>
          v.request("POST", `/api/v1/request/${token}/upload`, { name: `f${i}.jpg`, size: 10 }, { headers: visit }),
      };
    },
  },
];

describe("every limiter holds under 200 parallel requests (issue 27)", () => {
  it.each(cases)("$name", async (c) => {
    const { fire, thenRight } = await c.arrange();
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => fire(i)));
    const passed = answers.filter((r) => r.statusCode === c.passed);
    const refused = answers.filter((r) => r.statusCode === 429);
    if (c.alsoRefused) expect(passed.length).toBeLessThanOrEqual(c.max);
    else expect(passed.length, answers.find((r) => r.statusCode !== 429)?.body).toBe(c.max);
    expect(passed.length + refused.length, answers.find((r) => ![c.passed, 429].includes(r.statusCode))?.body).toBe(N);
    const texts = new Set(refused.map((r) => r.json().detail));
    expect(texts.has(c.refused)).toBe(true);
    for (const t of texts) expect([c.refused, c.alsoRefused]).toContain(t);
    for (const r of refused) expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    if (thenRight) {
      // Over the limit, even the right password waits for the window to end.
      const right = await thenRight();
      expect(right.statusCode).toBe(429);
      expect(right.json().detail).toBe(c.refused);
    }
  });
});

import { randomUUID } from "node:crypto";
import { SHARE_MESSAGES } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv } from "../../../test/harness.ts";
import type { AppError } from "../../platform/errors.ts";
import { hashPassword } from "../auth/index.ts";
import { createLinkGate, GATE_LIMITS, GATE_THROTTLED, type VisitInput } from "./gate.ts";
import type { GatedLink } from "./kind.ts";
import { KIND_NAMES, type KindCase, type KindName, linkKinds } from "./link-kinds.fixture.ts";

/**
 * The public links' gate as a unit (docs/architecture.md §10): every kind of link goes through the same gate, so
 * each case runs once per kind, on that kind's resolver (the same one its public routes call), with
 * links made through the members' API.
 */
let env: TestEnv;
let kinds: Record<KindName, KindCase>;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0" });
  kinds = await linkKinds(env);
});
afterAll(() => env.close());

let n = 0;
/** An address of its own per call: the per-address counters of one case never touch another's. */
const newIp = () => `10.61.${Math.floor(++n / 250)}.${1 + (n % 250)}`;
/** What a refusal answers (status, code, text); null when the visit was let through. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: AppError) => ({ status: e.status, code: e.code, detail: e.detail }),
  );
const PASSWORD_REQUIRED = { status: 401, code: "SHARE_PASSWORD_REQUIRED", detail: SHARE_MESSAGES.passwordRequired };
const WRONG_PASSWORD = { status: 401, code: "SHARE_PASSWORD_REQUIRED", detail: SHARE_MESSAGES.wrongPassword };
const INACTIVE = { status: 403, code: "SHARE_LINK_INACTIVE", detail: SHARE_MESSAGES.expired };
const THROTTLED = { status: 429, code: "RATE_LIMITED", detail: GATE_THROTTLED };

describe.each(KIND_NAMES)("the gate, for %s links", (name) => {
  const kindCase = () => kinds[name];
  const resolver = () => env.rt.publicLinks.kind(kindCase().kind);
  const visit = (token: string, ip: string, more: Partial<VisitInput> = {}) =>
    resolver().resolve({ token, ip, password: undefined, credential: undefined, ...more });

  it("no password: 401; a wrong one: 401 with its own text; the right one: a credential that then opens it alone", async () => {
    const link = await kindCase().make("right-one");
    const ip = newIp();
    expect(await refusal(visit(link.token, ip))).toEqual(PASSWORD_REQUIRED);
    expect(await refusal(visit(link.token, ip, { password: "wrong-one" }))).toEqual(WRONG_PASSWORD);
    const unlocked = await visit(link.token, ip, { password: "right-one" });
    expect(unlocked.link.id).toBe(link.id);
    expect(unlocked.credential).toMatch(/^\d+\.[\w-]+$/);
    expect(unlocked.visitor).toEqual(kindCase().visitorOf(link));
    // The credential alone lets the visit through (a new one is minted only for a password).
    const again = await visit(link.token, newIp(), { credential: unlocked.credential });
    expect(again.link.id).toBe(link.id);
    expect(again.credential).toBeUndefined();
    // A link without a password lets every visit through, with no credential.
    const open = await kindCase().make();
    expect((await visit(open.token, ip)).credential).toBeUndefined();
  });

  it("a credential is bound to its link and its password: another link of the kind, a new password refuse it", async () => {
    const a = await kindCase().make("same-password");
    const b = await kindCase().make("same-password");
    const { credential } = await visit(a.token, newIp(), { password: "same-password" });
    expect(await refusal(visit(b.token, newIp(), { credential }))).toEqual(PASSWORD_REQUIRED);
    expect((await visit(a.token, newIp(), { credential })).link.id).toBe(a.id);
    await a.set({ password: "a-new-one" });
    expect(await refusal(visit(a.token, newIp(), { credential }))).toEqual(PASSWORD_REQUIRED);
    // Removing the password opens the link to all; putting one back ends the old unlocks still.
    await a.set({ password: null });
    expect((await visit(a.token, newIp())).link.id).toBe(a.id);
    await a.set({ password: "same-password" });
    expect(await refusal(visit(a.token, newIp(), { credential }))).toEqual(PASSWORD_REQUIRED);
  });

  it("disabled, then expired: 403 with the one text, even with the right password; live again, it opens", async () => {
    const link = await kindCase().make("right-one");
    const ip = newIp();
    await link.set({ is_active: false });
    expect(await refusal(visit(link.token, ip, { password: "right-one" }))).toEqual(INACTIVE);
    expect(await refusal(visit(link.token, ip))).toEqual(INACTIVE);
    await link.set({ is_active: true, expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(await refusal(visit(link.token, ip, { password: "right-one" }))).toEqual(INACTIVE);
    await link.set({ expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await visit(link.token, ip, { password: "right-one" })).link.id).toBe(link.id);
  });

  it("wrong passwords from one address: past the limit 429, the right one too; another address still gets in", async () => {
    const link = await kindCase().make("right-one");
    const ip = newIp();
    for (let i = 0; i < GATE_LIMITS.linkAddress.max; i++)
      expect(await refusal(visit(link.token, ip, { password: `guess-${i}` }))).toEqual(WRONG_PASSWORD);
    expect(await refusal(visit(link.token, ip, { password: "guess-again" }))).toEqual(THROTTLED);
    expect(await refusal(visit(link.token, ip, { password: "right-one" }))).toEqual(THROTTLED);
    expect((await visit(link.token, newIp(), { password: "right-one" })).link.id).toBe(link.id);
  });

  it("an unknown token: 404 with the kind's text, counted per address over every kind", async () => {
    const ip = newIp();
    const notFound = { status: 404, code: "NOT_FOUND", detail: kindCase().kind.notFound };
    expect(await refusal(visit(`no-such-${randomUUID()}`, ip))).toEqual(notFound);
    // The address's counter (shared by every kind) nearly full, as a token walk leaves it.
    await env.rt.db
      .updateTable("rate_limits")
      .set({ count: GATE_LIMITS.unknownToken.max - 1 })
      .where("key", "=", `share-token:${ip}`)
      .execute();
    expect(await refusal(visit(`no-such-${randomUUID()}`, ip))).toEqual(notFound);
    expect(await refusal(visit(`no-such-${randomUUID()}`, ip))).toEqual(THROTTLED);
    for (const other of Object.values(kinds).filter((k) => k !== kindCase())) {
      const there = env.rt.publicLinks.kind(other.kind);
      const res = there.resolve({ token: `no-such-${randomUUID()}`, ip, password: undefined, credential: undefined });
      expect(await refusal(res)).toEqual(THROTTLED);
    }
  });
});

describe("the gate's credentials", () => {
  it("a credential of one kind never opens a link of another kind, even one with the same id", async () => {
    const link: GatedLink = {
      id: randomUUID(),
      workspace_id: randomUUID(),
      is_active: true,
      expires_at: null,
      password_hash: await hashPassword("right-one"),
      password_version: 0,
    };
    const [share, request] = [createLinkGate(env.rt, "share"), createLinkGate(env.rt, "request")];
    const ip = newIp();
    const { credential } = await share.pass(link, { ip, password: "right-one", credential: undefined });
    expect(credential).toBeDefined();
    expect(await share.pass(link, { ip, password: undefined, credential })).toEqual({});
    expect(await refusal(request.pass(link, { ip, password: undefined, credential }))).toEqual(PASSWORD_REQUIRED);
    // Nor on another password version of the same link.
    const next = { ...link, password_version: 1 };
    expect(await refusal(share.pass(next, { ip, password: undefined, credential }))).toEqual(PASSWORD_REQUIRED);
  });
});

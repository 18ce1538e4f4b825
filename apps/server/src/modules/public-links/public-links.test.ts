import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, type TestEnv } from "../../../test/harness.ts";
import { redactUrl } from "../../platform/logging.ts";
import { UNLOCK_TTL_SECONDS } from "./gate.ts";
import { credentialCookie, defineLinkKind, linkApiPath, linkPage } from "./kind.ts";
import { KIND_NAMES, type KindCase, type KindName, linkKinds } from "./link-kinds.fixture.ts";
import { createPublicLinks } from "./service.ts";

/**
 * What every kind of public link shares beyond the gate: the credential cookie (its name, its path,
 * what it opens), the token's redaction from logs, and coherence of the links the read cache keeps.
 */
let env: TestEnv;
let kinds: Record<KindName, KindCase>;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0" });
  kinds = await linkKinds(env);
});
afterAll(() => env.close());

const withPassword = (v: Client, url: string, password: string) =>
  v.request("GET", url, undefined, { headers: { "x-share-password": password } });

describe.each(KIND_NAMES)("the credential cookie of %s links", (name) => {
  const kindCase = () => kinds[name];

  it("is HttpOnly, SameSite=Lax, for 12 hours, sent only to the link's API path; it opens that link only", async () => {
    const { kind } = kindCase();
    const a = await kindCase().make("right-one");
    const b = await kindCase().make("right-one");
    const v = new Client(env.app);
    const ok = await withPassword(v, linkApiPath(kind, a.token), "right-one");
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers["x-robots-tag"]).toBe("noindex");
    const cookie = ok.cookies.find((k) => k.name === credentialCookie(kind));
    expect(cookie).toMatchObject({
      name: `hangar_${name}`,
      httpOnly: true,
      sameSite: "Lax",
      path: `/api/v1/${name}/${a.token}`,
      maxAge: UNLOCK_TTL_SECONDS,
    });
    // The client sends it everywhere (a browser would not): it still opens only its own link.
    expect((await v.get(linkApiPath(kind, a.token))).statusCode).toBe(200);
    const other = await v.get(linkApiPath(kind, b.token));
    expect(other.statusCode).toBe(401);
    expect(other.json().detail).toBe("Password required");
    // Nor a link of another kind, under that kind's cookie name.
    for (const o of Object.values(kinds).filter((k) => k.kind !== kind)) {
      const there = await o.make("right-one");
      const res = await new Client(env.app).request("GET", linkApiPath(o.kind, there.token), undefined, {
        headers: { cookie: `${credentialCookie(o.kind)}=${cookie!.value}` },
      });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe("every kind of public link", () => {
  it("is tested through the gate: the runtime has no kind the gate's tests do not run for", () => {
    expect(
      env.rt.publicLinks
        .kinds()
        .map((k) => k.name)
        .sort(),
    ).toEqual([...KIND_NAMES].sort());
  });

  it("has its token kept out of the logs, in its API path and on its page", () => {
    for (const kind of env.rt.publicLinks.kinds()) {
      const token = randomUUID();
      for (const url of [`${linkApiPath(kind, token)}/some/thing?x=1`, linkPage(kind, token)])
        expect(redactUrl(url)).not.toContain(token);
    }
  });

  it("kept in the read cache only when its table tells the cache of every change to a link", async () => {
    for (const kind of env.rt.publicLinks.kinds()) {
      if (!kind.cache) continue;
      const r = await sql<{ fn: string; events: number }>`
        SELECT p.proname AS fn, t.tgtype::int AS events FROM pg_trigger t
        JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE t.tgrelid = ${kind.cache.table}::regclass AND NOT t.tgisinternal`.execute(env.rt.db);
      // A row trigger (bit 0) on INSERT, DELETE and UPDATE (bits 2, 3, 4) sending the workspace's key.
      const row = r.rows.find((t) => t.fn === "hangar_cache_by_workspace");
      expect(row, kind.name).toBeDefined();
      expect(row!.events & 0b11101).toBe(0b11101);
      expect(r.rows.map((t) => t.fn)).toContain("hangar_cache_all");
    }
  });

  it("has a name and a page of its own: a kind that takes another's is refused", () => {
    const links = createPublicLinks(env.rt);
    const base = { notFound: "Not found.", lookup: async () => undefined, cache: null, visitor: () => null };
    links.kind(defineLinkKind({ ...base, name: "portal", page: "p" }));
    expect(() => links.kind(defineLinkKind({ ...base, name: "portal", page: "q" }))).toThrow(/clashes/);
    expect(() => links.kind(defineLinkKind({ ...base, name: "review", page: "p" }))).toThrow(/clashes/);
    expect(links.kinds().map((k) => k.name)).toEqual(["portal"]);
  });
});

import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished, vi } from "vitest";
import { createTestEnv, type TestEnv, workspaceWith } from "../../test/harness.ts";
import { createPgListener, HEARTBEAT_CHANNEL, LISTENER_NAME } from "./pg-listener.ts";
import { createReadCache, feedReadCache } from "./read-cache.ts";

describe("read cache (unit)", () => {
  const live = (opts: Parameters<typeof createReadCache>[0] = {}) => {
    const c = createReadCache(opts);
    c.setLive(true);
    return c;
  };

  it("answers nothing and keeps nothing until live, and forgets everything when it goes deaf", () => {
    const c = createReadCache();
    c.set("k", 1, ["w:a"], c.snapshot());
    expect(c.get("k")).toBeUndefined();
    c.setLive(true);
    c.set("k", 1, ["w:a"], c.snapshot());
    expect(c.get("k")).toBe(1);
    c.setLive(false);
    expect(c.get("k")).toBeUndefined();
    c.setLive(true);
    expect(c.get("k")).toBeUndefined();
  });

  it("drops an entry when a key it depends on changes, and only then", () => {
    const c = live();
    c.set("k", "v", ["w:a", "u:1"], c.snapshot());
    c.bump("w:b", "u:2");
    expect(c.get("k")).toBe("v");
    c.bump("u:1");
    expect(c.get("k")).toBeUndefined();
  });

  it("refuses an answer read before a change that landed while it was being read", () => {
    const c = live();
    const snap = c.snapshot();
    c.bump("w:a"); // the change arrives while the query runs
    c.set("k", "old", ["w:a"], snap);
    expect(c.get("k")).toBeUndefined();
    const after = c.snapshot();
    c.set("k", "new", ["w:a"], after);
    expect(c.get("k")).toBe("new");
  });

  it("'*' drops everything; entries expire; the oldest go first past the bound", async () => {
    // Expiry reads Date.now: a faked clock moves past the lifetime, whatever the machine's speed.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const c = live({ ttlMs: 30, maxEntries: 2 });
    c.set("a", 1, [], c.snapshot());
    c.bump("*");
    expect(c.get("a")).toBeUndefined();
    c.set("a", 1, [], c.snapshot());
    c.set("b", 2, [], c.snapshot());
    c.set("c", 3, [], c.snapshot());
    expect([c.get("a"), c.get("b"), c.get("c")]).toEqual([undefined, 2, 3]);
    c.set("d", 4, [], c.snapshot(), 5_000); // its own, longer expiry; the bound of 2 drops "b" now
    expect([c.get("b"), c.get("c"), c.get("d")]).toEqual([undefined, 3, 4]);
    // "c" lives 30 ms: there at 29, gone at 30 (the old test slept 50 ms and checked "b", which the
    // bound had dropped already: it could not see an expiry fail).
    vi.advanceTimersByTime(29);
    expect(c.get("c")).toBe(3);
    vi.advanceTimersByTime(1);
    expect(c.get("c")).toBeUndefined();
    expect(c.get("d")).toBe(4);
    vi.advanceTimersByTime(5_000);
    expect(c.get("d")).toBeUndefined();
  });
});

describe("read cache (API)", () => {
  let env: TestEnv;
  // Another connection: what another API process, a worker or hand-written SQL would change.
  let other: pg.Client;
  beforeAll(async () => {
    env = await createTestEnv({ AI_TAGS: "0" });
    other = new pg.Client({ connectionString: inject("databaseUrl") });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await env.close();
  });

  /** Database connections taken from the pool while `fn` runs: 0 means answered from the cache. */
  async function checkouts(fn: () => Promise<unknown>) {
    let n = 0;
    const count = () => n++;
    env.rt.pool.on("acquire", count);
    try {
      await fn();
    } finally {
      env.rt.pool.off("acquire", count);
    }
    return n;
  }

  async function asset(wsId: string, name: string) {
    const a = await env.rt.db
      .insertInto("assets")
      .values({ workspace_id: wsId, name, status: "COMPLETED", is_temp: false, directory: `${wsId}/x` })
      .returning("id")
      .executeTakeFirstOrThrow();
    return a.id;
  }

  /**
   * Repeats a request until one is answered without the database. The inserts a test makes notify
   * too, and a notification that lands after a read voids what that read cached: a moment later the
   * cache settles.
   */
  async function settled(fn: () => Promise<unknown>) {
    await eventually(async () => (await checkouts(fn)) === 0);
  }

  /** Polls until `check` holds (or fails the test after `ms`): changes from elsewhere arrive by notification. */
  async function eventually(check: () => Promise<boolean>, ms = 2_000) {
    const until = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return Date.now() - (until - ms);
  }

  it("answers a repeated asset GET without touching the database, and the answer is right", async () => {
    const { ws, members } = await workspaceWith(env, ["EDITOR"]);
    const id = await asset(ws.id, "cached.jpg");
    const url = `/workspaces/${ws.id}/assets/${id}`;
    const client = members.EDITOR!.client;
    expect((await client.get(url)).json().name).toBe("cached.jpg");
    let again: { statusCode: number; json(): { name: string } } | undefined;
    await settled(async () => {
      again = await client.get(url);
    });
    expect(again!.statusCode).toBe(200);
    expect(again!.json().name).toBe("cached.jpg");
  });

  it("a client reads its own writes at once", async () => {
    const { ws, admin } = await workspaceWith(env);
    const id = await asset(ws.id, "before.jpg");
    const url = `/workspaces/${ws.id}/assets/${id}`;
    await admin.client.get(url);
    await admin.client.get(url); // cached now
    const put = await admin.client.put(url, { name: "after.jpg" });
    expect(put.statusCode).toBe(200);
    expect(put.json().name).toBe("after.jpg"); // the answer to the write itself
    expect((await admin.client.get(url)).json().name).toBe("after.jpg");
    await admin.client.post(`/workspaces/${ws.id}/assets/favorites`, { asset_ids: [id], favorite: true });
    expect((await admin.client.get(url)).json().favorite).toBe(true);
  });

  it("changes are authorised against the database, even while the cache has not heard of a change yet", async () => {
    const { ws, members } = await workspaceWith(env, ["EDITOR"]);
    const id = await asset(ws.id, "x.jpg");
    const url = `/workspaces/${ws.id}/assets/${id}`;
    const editor = members.EDITOR!;
    await settled(() => editor.client.get(url));
    // Demoted with triggers off for this transaction: no notification, the cache keeps its answers.
    await other.query("BEGIN");
    await other.query("SET LOCAL session_replication_role = replica");
    await other.query("UPDATE memberships SET role = 'COMMENTER' WHERE workspace_id = $1 AND user_id = $2", [
      ws.id,
      editor.user.id,
    ]);
    await other.query("COMMIT");
    expect(await checkouts(() => editor.client.get(url))).toBe(0); // a read may still be answered from the cache
    const edit = await editor.client.put(url, { name: "nope.jpg" });
    expect(edit.statusCode).toBe(403);
  });

  it("a member removed by an admin, or logged out, loses access on the very next request", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const id = await asset(ws.id, "a.jpg");
    const url = `/workspaces/${ws.id}/assets/${id}`;
    const editor = members.EDITOR!;
    await settled(() => editor.client.get(url));
    expect((await admin.client.del(`/workspaces/${ws.id}/members/${editor.user.id}`)).statusCode).toBe(200);
    // Removal ends the member's access to this workspace (issue 12: not their sessions).
    expect((await editor.client.get(url)).statusCode).toBe(404);

    const commenter = members.COMMENTER!;
    const cookie = commenter.client.cookies.get("hangar_session")!;
    await settled(() => commenter.client.get(url));
    expect((await commenter.client.post("/users/logout")).statusCode).toBeLessThan(300);
    const stale = await env.app.inject({ method: "GET", url: `/api/v1${url}`, cookies: { hangar_session: cookie } });
    expect(stale.statusCode).toBe(401);
  });

  it("changes made elsewhere (another process, SQL) reach the cache within a moment", async () => {
    const { ws, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const id = await asset(ws.id, "one.jpg");
    const url = `/workspaces/${ws.id}/assets/${id}`;
    const editor = members.EDITOR!;
    const commenter = members.COMMENTER!;
    await editor.client.get(url);
    await commenter.client.get(url);
    await settled(() => editor.client.get(url));

    // The asset and what hangs off it: renamed, tagged.
    await other.query("UPDATE assets SET name = 'two.jpg' WHERE id = $1", [id]);
    await eventually(async () => (await editor.client.get(url)).json().name === "two.jpg");
    await other.query(
      `WITH t AS (INSERT INTO tags (workspace_id, name) VALUES ($1, 'late') RETURNING id)
       INSERT INTO asset_tags (asset_id, tag_id) SELECT $2, id FROM t`,
      [ws.id, id],
    );
    await eventually(async () => (await editor.client.get(url)).json().tags.includes("late"));

    // Membership removed elsewhere: 404 within a moment, not after a cache lifetime.
    await other.query("DELETE FROM memberships WHERE workspace_id = $1 AND user_id = $2", [ws.id, editor.user.id]);
    await eventually(async () => (await editor.client.get(url)).statusCode === 404);

    // Every session of a user ended elsewhere (a password reset on another machine): 401.
    await other.query("DELETE FROM sessions WHERE user_id = $1", [commenter.user.id]);
    await eventually(async () => (await commenter.client.get(url)).statusCode === 401);
  });

  it("can be turned off (READ_CACHE=0): nothing listens, every read goes to the database", async () => {
    const off = await createTestEnv({ AI_TAGS: "0", READ_CACHE: "0" }, { work: false });
    try {
      const { ws, admin } = await workspaceWith(off);
      const id = (
        await off.rt.db
          .insertInto("assets")
          .values({ workspace_id: ws.id, name: "a.jpg", status: "COMPLETED", is_temp: false })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
      const url = `/workspaces/${ws.id}/assets/${id}`;
      expect(off.rt.cache.live).toBe(false);
      let n = 0;
      const count = () => n++;
      off.rt.pool.on("acquire", count);
      for (let i = 0; i < 3; i++) expect((await admin.client.get(url)).statusCode).toBe(200);
      off.rt.pool.off("acquire", count);
      expect(n).toBeGreaterThanOrEqual(3);
    } finally {
      await off.close();
    }
  });

  it("goes live only while its heartbeat comes back, and deaf when it stops coming", async () => {
    const { pino } = await import("pino");
    const cache = createReadCache();
    const sent = new pg.Client({ connectionString: inject("databaseUrl") });
    await sent.connect();
    // Notifications that never reach the listener (as behind a transaction-pooling proxy): a
    // heartbeat sent on another channel.
    let swallow = true;
    const listener = createPgListener({
      url: inject("databaseUrl"),
      log: pino({ level: "silent" }),
      pingEveryMs: 100,
      sendPing: async (payload) => {
        await sent.query("SELECT pg_notify($1, $2)", [swallow ? "elsewhere" : HEARTBEAT_CHANNEL, payload]);
      },
    });
    const feed = feedReadCache(listener, cache);
    try {
      expect(await feed.ready(600)).toBe(false);
      swallow = false;
      expect(await feed.ready(15_000)).toBe(true);
      cache.set("k", 1, [], cache.snapshot());
      expect(cache.get("k")).toBe(1);
      swallow = true;
      await eventually(async () => !cache.live, 2_000);
      expect(cache.get("k")).toBeUndefined();
    } finally {
      feed.close();
      await listener.close();
      await sent.end();
    }
  });

  it("while it cannot hear changes the cache answers nothing, then resumes empty", async () => {
    const { ws, members } = await workspaceWith(env, ["EDITOR"]);
    const id = await asset(ws.id, "first.jpg");
    const url = `/workspaces/${ws.id}/assets/${id}`;
    const editor = members.EDITOR!;
    await settled(() => editor.client.get(url));

    // This process's listener only (LISTENER_NAME holds its pid): other test files' caches stay live.
    await other.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [
      LISTENER_NAME,
    ]);
    await eventually(async () => !env.rt.cache.live);
    // Deaf: a change nobody announces to this process is still seen at once, since reads go to the database.
    await other.query("UPDATE assets SET name = 'second.jpg' WHERE id = $1", [id]);
    expect((await editor.client.get(url)).json().name).toBe("second.jpg");
    expect(await checkouts(() => editor.client.get(url))).toBeGreaterThan(0);

    await eventually(async () => env.rt.cache.live, 15_000);
    await settled(() => editor.client.get(url));
  });
});

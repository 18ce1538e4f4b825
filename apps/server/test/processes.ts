import path from "node:path";

// Starting processes lives in hangar-process.ts (the browser tests use it without the server's types).
export { childrenOf, freePort, type HangarProcess, spawnHangar, spawnReady } from "./hangar-process.ts";

/** Signed in over real HTTP: the cookie and CSRF headers to send with every call (any API process). */
export async function httpLogin(base: string, email: string, password: string) {
  // A cookie jar: a later Set-Cookie of the same name replaces the earlier one, as in a browser.
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ""] = c.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrfRes = await fetch(`${base}/api/v1/users/set-csrf-token`);
  keep(csrfRes);
  const { data } = (await csrfRes.json()) as { data: { csrftoken: string } };
  const res = await fetch(`${base}/api/v1/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: cookie(), "x-csrftoken": data.csrftoken },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  keep(res);
  // Sign-in sets a CSRF token bound to the new session: its cookie's value is the header's.
  return { cookie: cookie(), "x-csrftoken": jar.get("XSRF-TOKEN") ?? "", "content-type": "application/json" };
}

/**
 * A fresh database and data directory that several Hangar processes share, with a verified user
 * and a workspace; `rt` is a runtime of the test's own on the same database and files.
 */
export async function sharedInstance() {
  const { mkdtemp, chmod, rm } = await import("node:fs/promises");
  const os = await import("node:os");
  const { pino } = await import("pino");
  const { freshDatabase } = await import("./databases.ts");
  const { PASSWORD } = await import("./harness.ts");
  const { loadConfig } = await import("../src/config.ts");
  const { migrateToLatest } = await import("../src/db/db.ts");
  const { hashPassword } = await import("../src/modules/auth/passwords.ts");
  const { createRuntime } = await import("../src/runtime.ts");
  const db = await freshDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "hangar-procs-"));
  await chmod(dataDir, 0o755);
  const env = { DATABASE_URL: db.url, DATA_DIR: dataDir };
  const rt = createRuntime(
    loadConfig({ ...env, DEMO_ACCOUNT: "0", AI_TAGS: "0", FACES: "0", LOG_LEVEL: "silent" }),
    db.url,
    pino({ level: "silent" }),
  );
  await migrateToLatest(rt.db);
  const email = `procs-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
  const user = await rt.services.users.create({
    email,
    password_hash: await hashPassword(PASSWORD),
    first_name: "Multi",
    last_name: "Process",
    email_verified_at: new Date(),
  });
  const workspaceId = await rt.services.workspaces.createFor(user!.id, "Many machines");
  return {
    db,
    dataDir,
    env,
    rt,
    email,
    password: PASSWORD,
    workspaceId,
    async close() {
      await rt.close();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

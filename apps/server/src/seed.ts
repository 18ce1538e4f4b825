import { randomBytes } from "node:crypto";
import { hashPassword } from "./modules/auth/passwords.ts";
import type { Runtime } from "./runtime.ts";

export const DEMO_EMAIL = "demo@hangar.local";

const newPassword = () => randomBytes(9).toString("base64url");

/**
 * On first run (no users at all) create a verified demo account with its own workspace and answer
 * its password (shown once). On later runs answer the demo account without a password (null when
 * there is none), so the start-up banner can say how to get in again.
 */
export async function ensureDemoAccount(rt: Runtime): Promise<{ email: string; password: string | null } | null> {
  const any = await rt.services.users.findByEmail(DEMO_EMAIL);
  if (any) return { email: DEMO_EMAIL, password: null };
  if ((await rt.services.users.count()) > 0) return null;
  const password = newPassword();
  const user = await rt.services.users.create({
    email: DEMO_EMAIL,
    password_hash: await hashPassword(password),
    first_name: "Demo",
    last_name: "User",
    email_verified_at: new Date(),
  });
  if (!user) return null;
  await rt.services.workspaces.createFor(user.id, "Demo workspace");
  return { email: DEMO_EMAIL, password };
}

/** `hangar reset-password <e-mail>`: a new random password (answered once), every session ended. */
export async function resetPassword(rt: Runtime, email: string): Promise<string | null> {
  const user = await rt.services.users.findByEmail(email.trim().toLowerCase());
  if (!user) return null;
  const password = newPassword();
  await rt.services.users.update(user.id, { password_hash: await hashPassword(password) });
  await rt.services.auth.endSessions(user.id);
  return password;
}

/** The few calls the demo seeding makes, through the app's own HTTP API as a browser would. */
interface Injector {
  inject(opts: {
    method: "GET" | "POST" | "PUT";
    url: string;
    headers?: Record<string, string>;
    payload?: unknown;
  }): Promise<{ statusCode: number; json(): unknown; headers: Record<string, unknown> }>;
}

const cookiesOf = (res: { headers: Record<string, unknown> }) =>
  [res.headers["set-cookie"] ?? []].flat().map((c) => String(c).split(";")[0] ?? "");

/**
 * Fills the new demo workspace with boards and sample files through the public API (so it goes
 * through the same checks and the real pipeline as any upload).
 */
export async function seedDemoContent(app: Injector, rt: Runtime, email: string, password: string) {
  const { demoFiles } = await import("./ops/demo-content.ts");
  const { CSRF } = await import("@hangar/contract");
  const jar = new Map<string, string>();
  const keep = (res: { headers: Record<string, unknown> }) => {
    for (const c of cookiesOf(res)) {
      const [k, ...v] = c.split("=");
      jar.set(k!, v.join("="));
    }
  };
  let token = "";
  const call = async (method: "GET" | "POST" | "PUT", url: string, payload?: unknown) => {
    const headers: Record<string, string> = {
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
      [CSRF.altHeader]: token,
    };
    const res = await app.inject({ method, url: `/api/v1${url}`, headers, payload });
    keep(res);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${JSON.stringify(res.json())}`);
    return res.json() as Record<string, unknown> & { data?: { csrftoken: string } };
  };
  const csrf = async () => {
    token = (await call("GET", "/users/set-csrf-token")).data?.csrftoken ?? "";
  };
  {
    await csrf();
    await call("POST", "/users/login", { email, password });
    await csrf(); // a token for the new session
    const [ws] = (await call("GET", "/workspaces")) as unknown as Array<{ id: string }>;
    if (!ws) return;
    const boards = new Map<string, string>();
    const board = async (pathName: string): Promise<string> => {
      const known = boards.get(pathName);
      if (known) return known;
      const parts = pathName.split("/");
      const parentId = parts.length > 1 ? await board(parts.slice(0, -1).join("/")) : null;
      const created = await call("POST", `/workspaces/${ws.id}/boards`, { name: parts.at(-1), parent_id: parentId });
      boards.set(pathName, created.id as string);
      return created.id as string;
    };
    const files = await demoFiles();
    for (const f of files) {
      const init = await call("POST", `/workspaces/${ws.id}/assets/upload`, {
        name: f.name,
        size: f.bytes.length,
        board_id: f.board ? await board(f.board) : null,
      });
      const url = init.direct_url as string;
      // On S3 storage the URL is the bucket's own (presigned); on disk it is ours.
      const status = /^https?:/.test(url)
        ? (await fetch(url, { method: "PUT", body: new Uint8Array(f.bytes) })).status
        : (await app.inject({ method: "PUT", url, payload: f.bytes })).statusCode;
      if (status !== 200) throw new Error(`upload of ${f.name}: ${status}`);
      await call("POST", `/workspaces/${ws.id}/assets/tags`, { asset_ids: [init.asset_id], tags: f.tags });
    }
    await call("POST", "/users/logout");
    rt.log.info({ files: files.length, boards: boards.size }, "demo workspace filled with sample files");
  }
}

import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type pg from "pg";
import type { Actor } from "./actor.ts";

/**
 * Who is acting, for the audit log (issue 36, docs/architecture.md §4.5). Every request runs inside
 * a context holding its address, user agent and id, and its actor as soon as one is known (the
 * session hook's, or a link's visitor once the access layer let them in). The database pool hands each
 * connection to a query with `hangar.audit` set to that context (`auditedPool`), and the audit
 * triggers read it in the transaction of the change. Outside any request (jobs, start-up) nothing is
 * set: the system acted.
 */
interface AuditScope {
  req: FastifyRequest;
  /** A visitor admitted by the access layer after the session hook (share, review, upload links). */
  visitor?: Actor;
}

const storage = new AsyncLocalStorage<AuditScope>();

/** Runs each request in its own scope (before any other hook, so the session's queries have it too). */
export function installAuditContext(app: FastifyInstance) {
  app.addHook("onRequest", (req, _reply, done) => {
    storage.run({ req }, done);
  });
}

/** The access layer names a link's visitor once it lets them in. */
export function auditVisitor(actor: unknown) {
  const scope = storage.getStore();
  if (scope && (actor as Actor | undefined)?.kind === "visitor") scope.visitor = actor as Actor;
}

/** Runs `fn` as the system (a job started from a request acts for nobody in particular). */
export const asSystem = <T>(fn: () => T): T => storage.exit(fn);

/** The actor kinds of the log, as the API lists them. */
export type AuditActorKind = "member" | "api_key" | "personal_token" | "visitor" | "reviewer" | "anonymous" | "system";

/** The context of the current request as the triggers read it (JSON), or "" outside requests. */
export function currentAuditSetting(): string {
  const scope = storage.getStore();
  if (!scope) return "";
  const { req } = scope;
  const actor = req.actor?.kind === "anonymous" || !req.actor ? (scope.visitor ?? req.actor) : req.actor;
  const who: Record<string, string | undefined> = { k: "anonymous" };
  if (actor?.kind === "user") {
    if (actor.key) Object.assign(who, { k: "api_key", id: actor.key.id });
    else if (actor.token)
      // The user acted (their id, so "by this member" finds it), through which token the name says.
      Object.assign(who, {
        k: "personal_token",
        id: actor.userId,
        n: `${[actor.user.first_name, actor.user.last_name].filter(Boolean).join(" ") || actor.user.email} (token “${actor.token.name}”)`,
      });
    else
      Object.assign(who, {
        k: "member",
        id: actor.userId,
        n: [actor.user.first_name, actor.user.last_name].filter(Boolean).join(" ") || actor.user.email,
      });
  } else if (actor?.kind === "visitor") {
    Object.assign(who, {
      k: actor.content.kind === "review" ? "reviewer" : "visitor",
      id: actor.linkId,
      n: actor.name || actor.email || undefined,
    });
  }
  const ua = req.headers["user-agent"];
  return JSON.stringify({ ...who, ip: req.ip, ua: typeof ua === "string" ? ua.slice(0, 300) : undefined, rid: req.id });
}

type Client = pg.PoolClient & { hangarAudit?: string };

/**
 * The pool Kysely draws from, setting `hangar.audit` on a connection when the request using it is not
 * the one it was last set for (one statement then, none when it is the same).
 */
export function auditedPool(pool: pg.Pool): pg.Pool {
  const connect = async (): Promise<Client> => {
    const client = (await pool.connect()) as Client;
    const want = currentAuditSetting();
    if ((client.hangarAudit ?? "") !== want) {
      try {
        await client.query("SELECT set_config('hangar.audit', $1, false)", [want]);
      } catch (err) {
        client.release(err as Error);
        throw err;
      }
      client.hangarAudit = want;
    }
    return client;
  };
  return new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === "connect") return connect;
      const v = Reflect.get(target, prop, receiver);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

import type pg from "pg";
import type { Logger } from "pino";
import { z } from "zod";
import type { Config } from "./config.ts";
import { createDb, createPool, type Db } from "./db/db.ts";
import { createJobs, type JobDefinition, type Jobs } from "./jobs/queue.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { createAuthService } from "./modules/auth/index.ts";
import { createBoardsService } from "./modules/boards/index.ts";
import { createMembersService } from "./modules/members/index.ts";
import { createUsersService } from "./modules/users/index.ts";
import { createWorkspacesService } from "./modules/workspaces/index.ts";
import { createAccess } from "./platform/access.ts";
import { createRateLimiter } from "./platform/rate-limit.ts";

/** Everything a process needs, wired once: the API server and the workers share this. */
export function createRuntime(config: Config, databaseUrl: string, log: Logger) {
  const pool: pg.Pool = createPool(databaseUrl, config.DATABASE_POOL_SIZE, log);
  const db: Db = createDb(pool);
  const jobs: Jobs = createJobs(databaseUrl, log.child({ component: "jobs" }));
  const mailer: Mailer = createMailer({
    db,
    log: log.child({ component: "mail" }),
    jobs,
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
  });
  const access = createAccess(db);
  const limiter = createRateLimiter(db);
  const users = createUsersService({ db });
  const workspaces = createWorkspacesService({ db, access });
  const boards = createBoardsService({ db, access });
  // members ends sessions through auth; auth joins workspaces through members: wired late to avoid a cycle.
  let endSessions: (userId: string) => Promise<void> = async () => {};
  const members = createMembersService({
    db,
    access,
    mailer,
    users,
    publicUrl: config.publicUrl,
    endSessions: (id) => endSessions(id),
  });
  const auth = createAuthService({
    db,
    users,
    members,
    mailer,
    limiter,
    publicUrl: config.publicUrl,
    sessionTtlDays: config.SESSION_TTL_DAYS,
  });
  endSessions = auth.endSessions;

  const housekeeping: JobDefinition = {
    name: "housekeeping",
    payload: z.object({}).passthrough(),
    cron: "*/15 * * * *",
    async handle() {
      await auth.purgeExpired();
      await limiter.purgeExpired();
    },
  };
  const jobDefinitions: JobDefinition[] = [mailer.job as JobDefinition, workspaces.purgeJob, housekeeping];

  return {
    config,
    log,
    pool,
    db,
    jobs,
    jobDefinitions,
    mailer,
    access,
    limiter,
    services: { users, workspaces, members, auth, boards },
    async close() {
      await jobs
        .stop()
        .catch((err) => log.warn({ err: { message: (err as Error).message } }, "job engine stop failed"));
      await db.destroy();
    },
  };
}
export type Runtime = ReturnType<typeof createRuntime>;

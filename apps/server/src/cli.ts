import { ConfigError, loadConfig } from "./config.ts";
import { createLogger } from "./platform/logging.ts";

const USAGE = `Usage: hangar [command]

Commands:
  start     HTTP server and job workers in one process (default)
  serve     HTTP server only
  work      job workers only
  migrate   apply database migrations and exit
  backup <dir>   copy the database and every blob into a new directory <dir>
  restore <dir>  replace the database and blobs with the backup in <dir> (same Hangar version)
  outbox    print the newest mails of the dev outbox (when no SMTP_URL is set); works while Hangar runs
  reset-password <e-mail>  give that account a new random password and print it; works while Hangar runs
`;

/**
 * A terminal's Ctrl-C signals the whole process group: Hangar, and every npm (and tsx) above it,
 * which forward it again. Signals this close together are one Ctrl-C; only one after a visible
 * pause forces the exit.
 */
const SAME_SIGNAL_MS = 1500;

async function main() {
  const cmd = process.argv[2] ?? "start";
  if (cmd === "help" || cmd === "--help" || cmd === "-h") {
    process.stdout.write(USAGE);
    return;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.LOG_LEVEL, config.logFormat);
  const { start } = await import("./main.ts");

  if (cmd === "start" || cmd === "serve" || cmd === "work") {
    const role = cmd === "start" ? "all" : cmd;
    const started = await start(config, log, role);
    let firstSignalAt = 0;
    const onSignal = (sig: string) => {
      const now = Date.now();
      if (firstSignalAt && now - firstSignalAt < SAME_SIGNAL_MS) return;
      if (firstSignalAt) {
        log.warn(`${sig} again: skipping the rest of the draining; stopping PostgreSQL and exiting`);
        started.forceStop().finally(() => process.exit(1));
        return;
      }
      firstSignalAt = now;
      log.info(`${sig}: shutting down gracefully (press Ctrl-C again to force)`);
      started.stop().then(
        () => process.exit(0),
        (err) => {
          log.error({ err }, "shutdown failed");
          process.exit(1);
        },
      );
    };
    process.on("SIGINT", () => onSignal("SIGINT"));
    process.on("SIGTERM", () => onSignal("SIGTERM"));
    const lines = [""];
    if (started.app)
      lines.push(`  Hangar is running at ${config.publicUrl}`, `  API docs: ${config.publicUrl}/api/docs`);
    else lines.push("  Hangar workers are running.");
    if (!config.DATABASE_URL) lines.push(`  Data: ${config.dataDir}`);
    if (started.demo?.password) {
      lines.push(
        "",
        "  A demo account was created on this first run:",
        `    e-mail:   ${started.demo.email}`,
        `    password: ${started.demo.password}`,
      );
    } else if (started.demo) {
      lines.push(
        "",
        `  Demo account: ${started.demo.email} (forgot its password? run \`npm run hangar -- reset-password ${started.demo.email}\`)`,
      );
    }
    if (!config.SMTP_URL && started.app) {
      lines.push("  Mail (no SMTP_URL): links are logged, and `npm run hangar -- outbox` prints the newest mails.");
    }
    lines.push("", "  Press Ctrl-C to stop.", "");
    process.stdout.write(`${lines.join("\n")}\n`);
    return;
  }
  if (cmd === "reset-password") {
    const email = process.argv[3];
    if (!email) {
      process.stderr.write(`hangar reset-password needs an e-mail address.\n\n${USAGE}`);
      process.exit(2);
    }
    const started = await start({ ...config, DEMO_ACCOUNT: false }, log, "migrate", { attach: true });
    try {
      const { resetPassword } = await import("./seed.ts");
      const password = await resetPassword(started.rt, email);
      if (!password) {
        process.stderr.write(`No account with the e-mail ${email}.\n`);
        process.exitCode = 1;
      } else
        process.stdout.write(`New password for ${email}: ${password}\n(every session of that account was ended)\n`);
    } finally {
      await started.stop();
    }
    return;
  }
  if (cmd === "migrate" || cmd === "outbox") {
    const started = await start({ ...config, DEMO_ACCOUNT: false }, log, "migrate", { attach: cmd === "outbox" });
    if (cmd === "outbox") {
      const { outboxRepo } = await import("./mail/outbox-repo.ts");
      const mails = await outboxRepo.latest(started.rt.db, 10);
      if (!mails.length) process.stdout.write("The dev outbox is empty.\n");
      for (const m of mails.reverse()) {
        process.stdout.write(
          `\n--- ${m.created_at.toISOString()}  To: ${m.to_address}\nSubject: ${m.subject}\n\n${m.text_body}\n`,
        );
      }
    }
    await started.stop();
    return;
  }
  if (cmd === "backup" || cmd === "restore") {
    const dir = process.argv[3];
    if (!dir) {
      process.stderr.write(`hangar ${cmd} needs a directory.\n\n${USAGE}`);
      process.exit(2);
    }
    const ops = await import("./ops/backup.ts");
    const started = await start({ ...config, DEMO_ACCOUNT: false }, log, "migrate");
    try {
      const deps = {
        pool: started.rt.pool,
        store: started.rt.store,
        say: (l: string) => process.stdout.write(`${l}\n`),
      };
      if (cmd === "backup") {
        const m = await ops.backup(deps, dir);
        process.stdout.write(`Backed up ${m.tables.length} tables and ${m.blobs.length} blobs into ${dir}\n`);
      } else {
        const m = await ops.restore(deps, dir);
        const requeued = await ops.requeueProcessing(started.rt);
        process.stdout.write(
          `Restored ${m.tables.length} tables and ${m.blobs.length} blobs from ${dir}; ${requeued} assets queued for processing again\n`,
        );
      }
    } finally {
      await started.stop();
    }
    return;
  }
  process.stderr.write(USAGE);
  process.exit(2);
}

main().catch((err) => {
  process.stderr.write(`Hangar failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/**
 * Suites that start Hangar processes of their own (`hangar serve|work`, crashes, Ctrl-C, faults, a
 * second PostgreSQL): they run after the rest, two files at a time, so on two cores they neither starve
 * the API suite nor are starved by it.
 */
export const PROCESS_SUITES = [
  "apps/server/src/modules/live/live.test.ts",
  "apps/server/src/jobs/worker-crash.test.ts",
  "apps/server/src/ops/crash.test.ts",
  "apps/server/src/ops/faults.test.ts",
  "apps/server/src/ops/processes.test.ts",
  "apps/server/src/ops/ctrl-c.test.ts",
  "apps/server/src/db/embedded-postgres.test.ts",
];

/** What every suite on a real PostgreSQL shares (the global setup starts or reaches it once per run). */
export const serverSuite = {
  globalSetup: ["apps/server/test/global-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 120_000,
  pool: "forks" as const,
};

// Two cores: more forks only queue on the same CPUs and the database. Projects of one group share it.
const WORKERS = 3;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "api",
          include: ["apps/server/src/**/*.test.ts", "packages/**/src/**/*.test.ts"],
          exclude: PROCESS_SUITES,
          ...serverSuite,
          maxWorkers: WORKERS,
        },
      },
      {
        // The web app's own logic and components, in a DOM (happy-dom); no server, no database.
        plugins: [react()],
        test: {
          name: "web",
          include: ["apps/web/src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          pool: "forks",
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          name: "processes",
          include: PROCESS_SUITES,
          ...serverSuite,
          // After the others, two at a time (one per core; one at a time made a 320 s tail in CI): set
          // apart by group order, so it may have its own worker count.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

import { defineConfig } from "vitest/config";
import { PROCESS_SUITES, serverSuite } from "./vitest.config.ts";

/**
 * The many-machines mode on the machine's own PostgreSQL (TEST_DATABASE_URL): the suites whose
 * subject is the database itself — the job queue and its leases, the coherent read cache and live
 * events over LISTEN/NOTIFY, atomic limits and unique races, the listing's SQL, billing's
 * transactions, comments' and versions' races, and `hangar serve` + `hangar work` as separate processes. `.ci/run`
 * runs this after `npm test` (which runs everything on the embedded PostgreSQL); the rest of the API
 * suite would only repeat the same queries through another connection string. Alone:
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx vitest run --config vitest.pg.config.ts
 */
export const PG_SUITES = [
  "apps/server/src/jobs/**/*.test.ts",
  "apps/server/src/platform/**/*.test.ts",
  "apps/server/src/modules/listing/**/*.test.ts",
  "apps/server/src/modules/live/**/*.test.ts",
  "apps/server/src/modules/billing/**/*.test.ts",
  "apps/server/src/modules/comments/**/*.test.ts",
  "apps/server/src/modules/assets/versions-races.test.ts",
  "apps/server/src/ops/processes.test.ts",
];

export default defineConfig({
  test: {
    projects: [
      { test: { ...serverSuite, name: "pg", include: PG_SUITES, exclude: PROCESS_SUITES, maxWorkers: 3 } },
      {
        // As in vitest.config.ts: the suites that start processes of their own run after the rest.
        test: {
          ...serverSuite,
          name: "pg-processes",
          include: PROCESS_SUITES.filter((s) => /\/(jobs|modules\/live|ops\/processes)/.test(s)),
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

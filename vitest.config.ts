import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["apps/server/src/**/*.test.ts", "packages/**/src/**/*.test.ts", "apps/web/src/**/*.test.ts"],
    globalSetup: ["apps/server/test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two cores: more forks only queue on the same CPUs and the database.
    maxWorkers: 3,
  },
});

import { existsSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { serverSuite } from "./vitest.config.ts";

/**
 * The suites that touch stored bytes, run again on S3 storage: each test env starts an S3-protocol
 * server (s3rver) on loopback and uses STORAGE=s3 (apps/server/test/harness.ts, TEST_STORAGE=s3).
 * `npm test` runs this after the main suite; alone: `npx vitest run --config vitest.s3.config.ts`.
 */
export const S3_SUITES = [
  "apps/server/src/modules/uploads/uploads.test.ts",
  "apps/server/src/modules/uploads/upload-abort.test.ts",
  "apps/server/src/modules/processing/pipeline.test.ts",
  "apps/server/src/modules/downloads/downloads.test.ts",
  "apps/server/src/modules/assets/actions.test.ts",
  // public links: request-files uploads and a shared board's media and zips
  "apps/server/src/modules/file-requests/file-requests.test.ts",
  "apps/server/src/modules/file-requests/link-uploads.test.ts",
  "apps/server/src/modules/shares/shared.test.ts",
  // backup → restore round trip between two S3 servers (each env has its own)
  "apps/server/src/ops/backup.test.ts",
  // versions: each version's media, its download, and the backup round trip with versions
  "apps/server/src/modules/assets/versions.test.ts",
  "apps/server/src/modules/assets/versions-stack.test.ts",
  "apps/server/src/ops/backup-versions.test.ts",
  // versions through share links: each version's media and original signed for the link
  "apps/server/src/modules/assets/versions-links.test.ts",
];

// A suite that moved must not drop out of the S3 run silently.
for (const suite of S3_SUITES) if (!existsSync(suite)) throw new Error(`vitest.s3.config.ts: ${suite} does not exist`);

export default defineConfig({
  test: {
    ...serverSuite,
    name: "s3",
    include: S3_SUITES,
    env: { TEST_STORAGE: "s3" },
    maxWorkers: 3,
  },
});

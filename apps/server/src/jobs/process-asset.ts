import { z } from "zod";
import { type PipelineDeps, processAsset } from "../media/pipeline.ts";
import type { JobDefinition } from "./queue.ts";

export const PROCESS_ASSET_RETRIES = 3;

export function processAssetJob(
  deps: Omit<PipelineDeps, "maxAttempts">,
): JobDefinition<z.ZodObject<{ asset_id: z.ZodString }>> {
  return {
    name: "process-asset",
    payload: z.object({ asset_id: z.string() }),
    retryLimit: PROCESS_ASSET_RETRIES,
    retryDelaySeconds: 5,
    expireInSeconds: 30 * 60,
    heartbeatSeconds: 20,
    handle: (data) => processAsset({ ...deps, maxAttempts: PROCESS_ASSET_RETRIES + 1 }, data.asset_id),
  };
}

export const cleanupUploadsJob = (cleanup: () => Promise<number>): JobDefinition => ({
  name: "cleanup-abandoned-uploads",
  payload: z.object({}).passthrough(),
  cron: "23 * * * *",
  async handle() {
    await cleanup();
  },
});

/** S3 only: finishes direct uploads whose bytes arrived but whose client never completed them. */
export const finishDirectUploadsJob = (finish: () => Promise<number>): JobDefinition => ({
  name: "finish-direct-uploads",
  payload: z.object({}).passthrough(),
  cron: "* * * * *",
  async handle() {
    await finish();
  },
});

import { CronPayload, WatermarkVideoPayload } from "@hangar/contract";
import type { JobDefinition, JobSpec } from "./queue.ts";

export const watermarkVideoSpec: JobSpec<typeof WatermarkVideoPayload> = {
  name: "watermark-video",
  payload: WatermarkVideoPayload,
};

/**
 * A share link's watermark burned into one video's web copy (issue 33, modules/watermarks): one at a
 * time per process (a transcode of its own), a killed worker's job taken over after its lease; the
 * registry row carries the progress visitors see.
 */
export const watermarkVideoJob = (
  burn: (job: WatermarkVideoPayload) => Promise<void>,
): JobDefinition<typeof WatermarkVideoPayload> => ({
  ...watermarkVideoSpec,
  retryLimit: 1,
  expireInSeconds: 30 * 60,
  heartbeatSeconds: 30,
  oneAtATime: true,
  slots: 1,
  handle: (data) => burn(data),
});

export const purgeWatermarksSpec: JobSpec<typeof CronPayload> = { name: "purge-watermarks", payload: CronPayload };

/** Watermarked copies of settings no longer in force (or of deleted links): sent on a change, and hourly. */
export const purgeWatermarksJob = (purge: () => Promise<unknown>): JobDefinition<typeof CronPayload> => ({
  ...purgeWatermarksSpec,
  cron: "41 * * * *",
  async handle() {
    await purge();
  },
});

import { ReadTextPayload } from "@hangar/contract";
import { readAssetText, type TextJobDeps } from "../modules/processing/index.ts";
import type { IdleGate } from "./idle-gate.ts";
import type { JobDefinition, JobSpec } from "./queue.ts";

export const readTextSpec: JobSpec<typeof ReadTextPayload> = {
  name: "read-text",
  payload: ReadTextPayload,
};

/** Tries after the first: a read over its CPU budget is tried again with twice the budget, the last without one (its wall-time safety net only). */
export const READ_TEXT_RETRIES = 3;

/**
 * OCR of a COMPLETED asset (modules/processing/text-job.ts): one at a time per worker process, and
 * only once this process's processing has been quiet for a second (at most 5 minutes' wait), so a
 * burst of uploads reaches COMPLETED first and the text follows; a killed worker loses it after 20 s.
 * A read over its budget fails the job: pg-boss tries again after `retryDelaySeconds`, doubling
 * (with jitter) each time, and the asset's text says pending meanwhile.
 */
export function readTextJob(
  deps: Omit<TextJobDeps, "retries">,
  gate?: IdleGate,
  retryDelaySeconds = 10,
): JobDefinition<typeof ReadTextPayload> {
  return {
    ...readTextSpec,
    retryLimit: READ_TEXT_RETRIES,
    retryDelaySeconds,
    expireInSeconds: 20 * 60,
    heartbeatSeconds: 20,
    oneAtATime: true,
    slots: 1,
    handle: async (data, job) => {
      await gate?.idle();
      await readAssetText({ ...deps, retries: READ_TEXT_RETRIES }, data.asset_id, job.retryCount);
    },
  };
}

import { ReadTextPayload } from "@hangar/contract";
import { readAssetText, type TextJobDeps } from "../modules/processing/index.ts";
import type { JobDefinition, JobSpec } from "./queue.ts";

export const readTextSpec: JobSpec<typeof ReadTextPayload> = {
  name: "read-text",
  payload: ReadTextPayload,
};

/**
 * OCR of a COMPLETED asset (modules/processing/text-job.ts): one at a time per worker process, so
 * the pipeline's slots keep the other cores; a killed worker loses it after 20 s.
 */
export function readTextJob(deps: TextJobDeps): JobDefinition<typeof ReadTextPayload> {
  return {
    ...readTextSpec,
    retryLimit: 2,
    retryDelaySeconds: 10,
    expireInSeconds: 15 * 60,
    heartbeatSeconds: 20,
    oneAtATime: true,
    slots: 1,
    handle: (data) => readAssetText(deps, data.asset_id),
  };
}

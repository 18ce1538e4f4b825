import { ReadTextPayload } from "@hangar/contract";
import { readAssetText, type TextJobDeps } from "../modules/processing/index.ts";
import type { IdleGate } from "./idle-gate.ts";
import type { JobDefinition, JobSpec } from "./queue.ts";

export const readTextSpec: JobSpec<typeof ReadTextPayload> = {
  name: "read-text",
  payload: ReadTextPayload,
};

/**
 * OCR of a COMPLETED asset (modules/processing/text-job.ts): one at a time per worker process, and
 * only once this process's processing has been quiet for a second (at most 5 minutes' wait), so a
 * burst of uploads reaches COMPLETED first and the text follows; a killed worker loses it after 20 s.
 */
export function readTextJob(deps: TextJobDeps, gate?: IdleGate): JobDefinition<typeof ReadTextPayload> {
  return {
    ...readTextSpec,
    retryLimit: 2,
    retryDelaySeconds: 10,
    expireInSeconds: 20 * 60,
    heartbeatSeconds: 20,
    oneAtATime: true,
    slots: 1,
    handle: async (data) => {
      await gate?.idle();
      await readAssetText(deps, data.asset_id);
    },
  };
}

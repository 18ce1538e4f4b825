import { RunAiActionsPayload } from "@hangar/contract";
import type { JobDefinition, JobSpec } from "./queue.ts";

export const runAiActionsSpec: JobSpec<typeof RunAiActionsPayload> = {
  name: "run-ai-actions",
  payload: RunAiActionsPayload,
};

/** "Run on all assets" (issue 16): evaluates every processed asset of a workspace for one run row. */
export function runAiActionsJob(execute: (runId: string) => Promise<void>): JobDefinition<typeof RunAiActionsPayload> {
  return {
    ...runAiActionsSpec,
    retryLimit: 1,
    expireInSeconds: 6 * 60 * 60,
    heartbeatSeconds: 30,
    oneAtATime: true,
    handle: (data) => execute(data.run_id),
  };
}

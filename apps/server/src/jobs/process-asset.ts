import { ProcessAssetPayload } from "@hangar/contract";
import { type PipelineDeps, processAsset } from "../modules/processing/index.ts";
import type { IdleGate } from "./idle-gate.ts";
import type { JobDefinition, JobSpec } from "./queue.ts";

export const PROCESS_ASSET_RETRIES = 3;

/** What a sender needs (uploads, the backup tool): the name and the payload. */
export const processAssetSpec: JobSpec<typeof ProcessAssetPayload> = {
  name: "process-asset",
  payload: ProcessAssetPayload,
};

/** Sniff, describe and render one asset (docs/architecture.md §6); a killed worker loses it after 20 s. */
export function processAssetJob(
  deps: Omit<PipelineDeps, "maxAttempts">,
  /** Background work of this process (OCR) waits while assets are processed. */
  gate?: IdleGate,
): JobDefinition<typeof ProcessAssetPayload> {
  const run = (assetId: string, versionId?: string) =>
    processAsset({ ...deps, maxAttempts: PROCESS_ASSET_RETRIES + 1 }, assetId, versionId);
  return {
    ...processAssetSpec,
    retryLimit: PROCESS_ASSET_RETRIES,
    retryDelaySeconds: 5,
    expireInSeconds: 30 * 60,
    heartbeatSeconds: 20,
    oneAtATime: true,
    handle: (data) =>
      gate ? gate.run(() => run(data.asset_id, data.version_id)) : run(data.asset_id, data.version_id),
  };
}

import { DetectFacesPayload, GroupFacesPayload } from "@hangar/contract";
import type { IdleGate } from "./idle-gate.ts";
import type { JobDefinition, JobSpec } from "./queue.ts";

export const detectFacesSpec: JobSpec<typeof DetectFacesPayload> = {
  name: "detect-faces",
  payload: DetectFacesPayload,
};
/** Tries after the first when no picture of a version could be looked at. */
export const DETECT_FACES_RETRIES = 2;

export const groupFacesSpec: JobSpec<typeof GroupFacesPayload> = { name: "group-faces", payload: GroupFacesPayload };

/**
 * Faces of a COMPLETED version (issue 32; modules/people): its own job after the pipeline, one at a
 * time per process and only once processing has been quiet (like OCR), so a burst of uploads reaches
 * COMPLETED at the pipeline's own pace and the faces follow. The detector runs in a worker thread with
 * a per-picture time limit and a bounded heap (media/faces.ts). Safe to run twice: a version already
 * looked at is skipped.
 */
export function detectFacesJob(
  scan: (versionId: string, lastTry: boolean) => Promise<unknown>,
  gate?: IdleGate,
): JobDefinition<typeof DetectFacesPayload> {
  return {
    ...detectFacesSpec,
    retryLimit: DETECT_FACES_RETRIES,
    retryDelaySeconds: 30,
    expireInSeconds: 15 * 60,
    heartbeatSeconds: 20,
    oneAtATime: true,
    slots: 1,
    handle: async (data, job) => {
      await gate?.idle();
      await scan(data.version_id, job.retryCount >= DETECT_FACES_RETRIES);
    },
  };
}

/**
 * Grouping (issue 32): sent after faces were found in a workspace (one waiting at a time per
 * workspace), and every ten minutes for all workspaces, when it also queues the versions never looked
 * at (the backfill). DBSCAN over the waiting faces makes new people; it never moves a face a member placed.
 */
export function groupFacesJob(
  group: (workspaceId: string | undefined) => Promise<unknown>,
): JobDefinition<typeof GroupFacesPayload> {
  return {
    ...groupFacesSpec,
    cron: "*/10 * * * *",
    retryLimit: 1,
    expireInSeconds: 15 * 60,
    handle: async (data) => {
      await group(data.workspace_id);
    },
  };
}

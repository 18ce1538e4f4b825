import { DetectFacesPayload, GroupFacesPayload } from "@hangar/contract";
import type { Logger } from "pino";
import { createFaceDetector, type FaceDetector } from "../media/faces.ts";
import type { FaceFinder, PeopleService, PicturesOf } from "../modules/people/index.ts";
import { withFacePictures } from "../modules/processing/index.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import type { IdleGate } from "./idle-gate.ts";
import type { JobDefinition, JobSpec, Jobs } from "./queue.ts";

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

/**
 * Both jobs around the people service: a scan that found faces asks for its workspace's grouping (one
 * waiting per workspace); the periodic run groups every workspace's waiting faces and queues the
 * versions never looked at (`backfill`: while detection is on).
 */
export function facesJobs(deps: {
  people: PeopleService;
  jobs: Pick<Jobs, "send">;
  finder: () => Promise<FaceFinder | null>;
  store: BlobStore;
  backfill: boolean;
  gate?: IdleGate;
}) {
  const { people, jobs } = deps;
  const find = async (versionId: string, lastTry: boolean) => {
    const finder = await deps.finder();
    if (!finder) return;
    const pictures: PicturesOf = (row, use) => withFacePictures(deps.store, row, use);
    const done = await people.scanVersion(versionId, finder, pictures, { lastTry });
    if (done?.faces)
      await jobs.send(groupFacesSpec, { workspace_id: done.workspaceId }, { singletonKey: done.workspaceId });
  };
  const group = async (workspaceId: string | undefined) => {
    if (workspaceId) return people.cluster(workspaceId);
    await people.clusterAll();
    if (!deps.backfill) return;
    for (const id of await people.unscanned("00000000-0000-0000-0000-000000000000", 500))
      await jobs.send(detectFacesSpec, { version_id: id }, { singletonKey: id });
  };
  return [detectFacesJob(find, deps.gate), groupFacesJob(group)];
}

/** The pipeline's hook: queues looking for faces in a version once it is COMPLETED (one job per version). */
export const findFacesLater = (jobs: Pick<Jobs, "send">) => async (versionId: string) => {
  await jobs.send(detectFacesSpec, { version_id: versionId }, { singletonKey: versionId });
};

/**
 * The face detector of a process, started on first use in a worker thread (media/faces.ts); null (no
 * faces) when FACES is off or it cannot start. Imported with the runtime, like the tagger (runtime.ts).
 */
export function faceDetectorLoader(enabled: boolean, log: Logger) {
  let detector: Promise<FaceDetector | null> | null = null;
  const load = () =>
    (detector ??= Promise.resolve()
      .then(() => (enabled ? createFaceDetector() : null))
      .catch((err: Error) => {
        log.error({ err: { message: err.message } }, "face detector unavailable; no faces are found");
        return null;
      }));
  return {
    load,
    async close() {
      if (detector) await (await detector)?.close();
    },
  };
}

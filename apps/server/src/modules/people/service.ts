import {
  type AssetFaces,
  type Face,
  type FacePatch,
  type FacesPage,
  PEOPLE_MESSAGES,
  type PeopleAnswer,
  type Person,
  type PersonPatch,
} from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import type { Renditions } from "../../db/types.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { invalid, notFound } from "../../platform/errors.ts";
import { type Centroid, clusterDescriptors, meanOf, nearestPerson, withDescriptor } from "./grouping.ts";
import { PEOPLE } from "./policy.ts";
import { type NewFace, peopleRepo } from "./repo.ts";
import { toFace } from "./serialize.ts";

/** What the face detector answers for one picture (media/faces.ts, structurally). */
export interface FoundFace {
  box: [number, number, number, number];
  quality: number;
  descriptor: number[] | null;
}
export interface FaceFinder {
  detect(file: string): Promise<FoundFace[]>;
}
/** A version's pictures as local files for the time of `use` (processing's withFacePictures). */
export type PicturesOf = <T>(
  row: { directory: string; renditions: Renditions; duration: number | null },
  use: (pictures: Array<{ frame: number; file: string }>) => Promise<T>,
) => Promise<T>;

const personMissing = () => notFound(PEOPLE_MESSAGES.personNotFound);

/**
 * People (issue 32; contract people.ts; docs/architecture.md §6.2): faces found by the pipeline's
 * detect-faces job, grouped into people. The job never changes what a member decided: faces a
 * member placed (`by_user`) are never moved, a merge leaves one person, and a rejection keeps a face
 * from that person for good. SQL in repo.ts.
 */
export function createPeopleService(deps: { db: Db; access: Access }) {
  const { db, access } = deps;

  async function requirePerson(workspaceId: string, personId: string) {
    const p = await peopleRepo.person(db, workspaceId, personId);
    if (!p) throw personMissing();
    return p;
  }

  async function personAnswer(workspaceId: string, personId: string): Promise<Person> {
    const [row] = await peopleRepo.list(db, workspaceId, true, personId);
    if (!row) {
      const p = await requirePerson(workspaceId, personId);
      return { id: p.id, name: p.name, hidden: p.hidden, face_count: 0, asset_count: 0, cover: null };
    }
    const [cover] = row.cover_id ? await peopleRepo.facesById(db, [row.cover_id]) : [];
    return { ...row, cover: cover ? toFace(cover) : null };
  }

  /** Joins waiting faces (of `ids`, or all) to their nearest person, under the workspace's lock. Answers how many joined. */
  async function joinNearest(workspaceId: string, ids: string[] | null): Promise<number> {
    return peopleRepo.locked(db, workspaceId, async (tx) => {
      const waiting = await peopleRepo.waitingFaces(tx, workspaceId, ids);
      if (!waiting.length) return 0;
      const people = new Map((await peopleRepo.centroids(tx, workspaceId)).map((c) => [c.id, c]));
      const changed = new Set<string>();
      let joined = 0;
      for (const f of waiting) {
        const near = nearestPerson(f.descriptor, [...people.values()], new Set(f.rejected));
        if (!near) continue;
        await peopleRepo.setFacePerson(tx, [f.id], near.id, false);
        people.set(near.id, withDescriptor(people.get(near.id)!, f.descriptor));
        changed.add(near.id);
        joined++;
      }
      for (const id of changed) {
        const c = people.get(id)!;
        await peopleRepo.setCentroid(tx, id, c.centroid, c.count);
      }
      return joined;
    });
  }

  return {
    /**
     * Looks for faces in a version's pictures (the detect-faces job): skipped when recognition is off,
     * the version is gone or already looked at. New groupable faces join their nearest person at once.
     * Answers the faces found (null: nothing was done).
     */
    async scanVersion(versionId: string, finder: FaceFinder, pictures: PicturesOf, opts: { lastTry?: boolean } = {}) {
      const t = await peopleRepo.scanTarget(db, versionId);
      if (!t?.enabled || !t.live || t.status !== "COMPLETED" || !t.directory || !t.renditions) return null;
      if (t.scanned) return null;
      const found: NewFace[] = [];
      let error: string | null = null;
      let failed = 0;
      let looked = 0;
      await pictures({ directory: t.directory, renditions: t.renditions, duration: t.duration }, async (pics) => {
        looked = pics.length;
        for (const p of pics) {
          try {
            for (const f of await finder.detect(p.file)) found.push({ frame: p.frame, ...f });
          } catch (err) {
            failed++;
            error = (err as Error).message.slice(0, 500);
          }
        }
      });
      // Nothing could be looked at (the detector down, a timeout): the job tries again; after its
      // last try the failure is kept, so a picture that always fails is not looked at forever.
      if (looked > 0 && failed === looked && !opts.lastTry) throw new Error(error ?? "face detection failed");
      const ids = await peopleRepo.saveScan(db, t.workspace_id, versionId, found, error);
      if (ids?.length) await joinNearest(t.workspace_id, ids);
      return { workspaceId: t.workspace_id, faces: found.length, error };
    },

    /**
     * The grouping job for one workspace: waiting faces first join the nearest person (people made or
     * named since they arrived), then DBSCAN turns each dense group of the rest into a new person.
     */
    async cluster(workspaceId: string) {
      const joined = await joinNearest(workspaceId, null);
      const created = await peopleRepo.locked(db, workspaceId, async (tx) => {
        if (!(await peopleRepo.enabled(tx, workspaceId))) return 0;
        const waiting = await peopleRepo.waitingFaces(tx, workspaceId, null);
        const groups = clusterDescriptors(waiting.map((f) => f.descriptor));
        for (const g of groups) {
          const faces = g.map((i) => waiting[i]!);
          const id = await peopleRepo.createPerson(tx, workspaceId, null);
          await peopleRepo.setFacePerson(
            tx,
            faces.map((f) => f.id),
            id,
            false,
          );
          await peopleRepo.setCentroid(tx, id, meanOf(faces.map((f) => f.descriptor)), faces.length);
        }
        return groups.length;
      });
      return { joined, created };
    },

    /** The periodic job: every workspace with waiting faces. */
    async clusterAll() {
      for (const ws of await peopleRepo.workspacesWaiting(db)) await this.cluster(ws);
    },

    /** Versions never looked at (made before faces existed, or while recognition was off), in batches. */
    async unscanned(after: string, limit: number) {
      return peopleRepo.unscanned(db, after, limit);
    },

    async enabled(workspaceId: string) {
      return peopleRepo.enabled(db, workspaceId);
    },

    async settings(actor: UserActor, workspaceId: string) {
      await access.require(actor, PEOPLE.view, inWorkspace(workspaceId));
      return { enabled: await peopleRepo.enabled(db, workspaceId) };
    },

    /** ADMIN: off deletes every face, descriptor and person of the workspace at once. */
    async setSettings(actor: UserActor, workspaceId: string, enabled: boolean) {
      await access.require(actor, PEOPLE.settings, inWorkspace(workspaceId));
      await peopleRepo.setEnabled(db, workspaceId, enabled);
      return { enabled };
    },

    async list(actor: UserActor, workspaceId: string, hidden: boolean): Promise<PeopleAnswer> {
      await access.require(actor, PEOPLE.view, inWorkspace(workspaceId));
      const enabled = await peopleRepo.enabled(db, workspaceId);
      if (!enabled) return { data: [], enabled };
      const rows = await peopleRepo.list(db, workspaceId, hidden);
      const covers = new Map(
        (
          await peopleRepo.facesById(
            db,
            rows.flatMap((r) => (r.cover_id ? [r.cover_id] : [])),
          )
        ).map((f) => [f.id, f]),
      );
      return {
        enabled,
        data: rows.map((r) => {
          const cover = r.cover_id ? covers.get(r.cover_id) : undefined;
          return { ...r, cover: cover ? toFace(cover) : null };
        }),
      };
    },

    async update(actor: UserActor, workspaceId: string, personId: string, patch: PersonPatch): Promise<Person> {
      await access.require(actor, PEOPLE.view, inWorkspace(workspaceId));
      await requirePerson(workspaceId, personId);
      await access.require(actor, PEOPLE.edit, inWorkspace(workspaceId));
      if (patch.cover_face_id) {
        const face = await peopleRepo.face(db, workspaceId, patch.cover_face_id);
        if (face?.person_id !== personId)
          throw invalid(PEOPLE_MESSAGES.coverNotTheirs, [
            { field: "cover_face_id", message: PEOPLE_MESSAGES.coverNotTheirs },
          ]);
      }
      await peopleRepo.updatePerson(db, personId, patch);
      return personAnswer(workspaceId, personId);
    },

    async merge(actor: UserActor, workspaceId: string, personId: string, ids: string[]): Promise<Person> {
      await access.require(actor, PEOPLE.view, inWorkspace(workspaceId));
      const into = await requirePerson(workspaceId, personId);
      await access.require(actor, PEOPLE.edit, inWorkspace(workspaceId));
      const from = [...new Set(ids)];
      if (from.includes(personId))
        throw invalid(PEOPLE_MESSAGES.mergeSelf, [{ field: "person_ids", message: PEOPLE_MESSAGES.mergeSelf }]);
      const found = await peopleRepo.peopleIn(db, workspaceId, from);
      if (found.length !== from.length)
        throw invalid(PEOPLE_MESSAGES.personNotFound, [
          { field: "person_ids", message: PEOPLE_MESSAGES.personNotFound },
        ]);
      await peopleRepo.locked(db, workspaceId, async (tx) => {
        await peopleRepo.merge(tx, into.id, from);
        await peopleRepo.recomputeCentroid(tx, into.id);
      });
      return personAnswer(workspaceId, personId);
    },

    async faces(
      actor: UserActor,
      workspaceId: string,
      personId: string,
      q: { page: number; page_size: number },
    ): Promise<FacesPage> {
      await access.require(actor, PEOPLE.view, inWorkspace(workspaceId));
      await requirePerson(workspaceId, personId);
      const rows = await peopleRepo.personFaces(db, personId, q.page_size, (q.page - 1) * q.page_size);
      const total = rows[0]?.total ?? 0;
      return {
        data: rows.map(toFace),
        page: q.page,
        page_size: q.page_size,
        total_count: total,
        has_more: q.page * q.page_size < total,
      };
    },

    async assetFaces(actor: UserActor, workspaceId: string, assetId: string): Promise<AssetFaces> {
      await access.require(actor, PEOPLE.view, { kind: "asset", workspaceId, assetId });
      if (!(await peopleRepo.liveAsset(db, workspaceId, assetId))) throw notFound("Asset not found.");
      const enabled = await peopleRepo.enabled(db, workspaceId);
      if (!enabled) return { data: [], enabled, scanned: false };
      const { faces, scanned } = await peopleRepo.assetFaces(db, workspaceId, assetId);
      return { data: faces.map(toFace), enabled, scanned };
    },

    /** Places a face: a person, a named person (made when none has the name), nobody, or "not this person". */
    async updateFace(actor: UserActor, workspaceId: string, faceId: string, patch: FacePatch): Promise<Face> {
      await access.require(actor, PEOPLE.view, inWorkspace(workspaceId));
      const face = await peopleRepo.face(db, workspaceId, faceId);
      if (!face) throw notFound(PEOPLE_MESSAGES.faceNotFound);
      await access.require(actor, PEOPLE.edit, inWorkspace(workspaceId));
      for (const id of [patch.person_id, patch.not_person_id]) if (id) await requirePerson(workspaceId, id);
      await peopleRepo.locked(db, workspaceId, async (tx) => {
        const before = face.person_id;
        let target: string | null = null;
        let byUser = true;
        if (patch.not_person_id !== undefined) {
          await peopleRepo.reject(tx, faceId, patch.not_person_id);
          // Not this person: the face leaves them and waits to be grouped again (elsewhere).
          target = before === patch.not_person_id ? null : before;
          byUser = before === patch.not_person_id ? false : face.by_user;
        } else if (patch.name !== undefined) {
          target =
            (await peopleRepo.personByName(tx, workspaceId, patch.name)) ??
            (await peopleRepo.createPerson(tx, workspaceId, patch.name));
        } else target = patch.person_id ?? null;
        if (target) await peopleRepo.clearRejection(tx, faceId, target);
        await peopleRepo.setFacePerson(tx, [faceId], target, byUser);
        for (const p of new Set([before, target])) if (p) await peopleRepo.recomputeCentroid(tx, p);
      });
      const after = await peopleRepo.face(db, workspaceId, faceId);
      return toFace(after!);
    },

    /** Counts (tests, bench). */
    counts: (workspaceId: string) => peopleRepo.counts(db, workspaceId),
  };
}
export type PeopleService = ReturnType<typeof createPeopleService>;
export type { Centroid };

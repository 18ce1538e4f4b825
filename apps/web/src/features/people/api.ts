import {
  type Face,
  type FacePatch,
  type PeopleAnswer,
  type Person,
  type PersonPatch,
  peopleApi,
} from "@hangar/contract";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { assetKeys } from "../../entities/asset";
import { workspaceKeys } from "../../entities/workspace";
import { callApi, errorMessage } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";

/**
 * People (issue 32; semantics in @hangar/contract people.ts): the workspace's people, a person's
 * faces, an asset's faces, and what members change. Everything sits under the workspace's scope;
 * a change to people or faces refreshes the people, the faces and the asset lists (the people filter).
 */
export const PEOPLE_MESSAGES = {
  loadFailed: "Failed to load people",
  facesFailed: "Failed to load faces",
  renamed: "Name saved",
  renameFailed: "Failed to rename the person",
  hidden: "Person hidden",
  shown: "Person shown again",
  hideFailed: "Failed to hide the person",
  merged: (n: number, name: string) => `${n} ${n === 1 ? "person" : "people"} merged into ${name}`,
  mergeFailed: "Failed to merge the people",
  faceFailed: "Failed to change the face",
  coverSet: "Cover chosen",
  settingsOn: "Face recognition turned on",
  settingsOff: "Face recognition turned off: every face and person was deleted",
  settingsFailed: "Failed to change face recognition",
  unnamed: "Unnamed person",
} as const;

export const peopleKeys = {
  all: (ws: string) => [...workspaceKeys.scope(ws), "people"] as const,
  list: (ws: string, hidden: boolean) => [...workspaceKeys.scope(ws), "people", "list", hidden] as const,
  faces: (ws: string, personId: string) => [...workspaceKeys.scope(ws), "people", "faces", personId] as const,
  assetFaces: (ws: string, assetId: string) => [...workspaceKeys.scope(ws), "people", "asset", assetId] as const,
  settings: (ws: string) => [...workspaceKeys.scope(ws), "people-settings"] as const,
};

export const personName = (p: { name: string | null } | null | undefined) => p?.name ?? PEOPLE_MESSAGES.unnamed;

export function usePeople(workspaceId: string | null, hidden = false) {
  return useQuery({
    queryKey: peopleKeys.list(workspaceId ?? "", hidden),
    queryFn: ({ signal }) =>
      callApi(peopleApi.list, {
        params: { id: workspaceId! },
        query: hidden ? { hidden: "true" } : {},
        signal,
        fallback: PEOPLE_MESSAGES.loadFailed,
      }) as Promise<PeopleAnswer>,
    enabled: !!workspaceId,
    staleTime: 30_000,
  });
}

export function usePersonFaces(workspaceId: string, personId: string, pageSize = 60) {
  return useQuery({
    queryKey: [...peopleKeys.faces(workspaceId, personId), pageSize],
    queryFn: ({ signal }) =>
      callApi(peopleApi.faces, {
        params: { id: workspaceId, personId },
        query: { page: 1, page_size: pageSize },
        signal,
        fallback: PEOPLE_MESSAGES.facesFailed,
      }),
  });
}

export function useAssetFaces(workspaceId: string, assetId: string, enabled = true) {
  return useQuery({
    queryKey: peopleKeys.assetFaces(workspaceId, assetId),
    queryFn: ({ signal }) =>
      callApi(peopleApi.assetFaces, {
        params: { id: workspaceId, assetId },
        signal,
        fallback: PEOPLE_MESSAGES.facesFailed,
      }),
    enabled,
    staleTime: 15_000,
  });
}

export function useFaceSettings(workspaceId: string | null) {
  return useQuery({
    queryKey: peopleKeys.settings(workspaceId ?? ""),
    queryFn: ({ signal }) =>
      callApi(peopleApi.settings, { params: { id: workspaceId! }, signal, fallback: PEOPLE_MESSAGES.loadFailed }),
    enabled: !!workspaceId,
    staleTime: 60_000,
  });
}

/** After any change to people or faces: the people, every face list, and the asset lists (people filter). */
function refresh(queryClient: QueryClient, ws: string) {
  void queryClient.invalidateQueries({ queryKey: peopleKeys.all(ws) });
  void queryClient.invalidateQueries({ queryKey: assetKeys.lists(ws) });
}

/** Writes a person's new state into every cached people list at once (the grid answers before the refetch). */
function patchLists(queryClient: QueryClient, ws: string, person: Person) {
  for (const hidden of [false, true])
    queryClient.setQueryData<PeopleAnswer>(peopleKeys.list(ws, hidden), (old) =>
      old ? { ...old, data: old.data.map((p) => (p.id === person.id ? { ...p, ...person } : p)) } : old,
    );
}

export function useUpdatePerson(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ personId, patch }: { personId: string; patch: PersonPatch }) =>
      callApi(peopleApi.update, {
        params: { id: workspaceId, personId },
        body: patch,
        fallback: PEOPLE_MESSAGES.renameFailed,
      }),
    onSuccess: (person, { patch }) => {
      patchLists(queryClient, workspaceId, person);
      if (patch.hidden !== undefined) notifySuccess(patch.hidden ? PEOPLE_MESSAGES.hidden : PEOPLE_MESSAGES.shown);
      else if (patch.cover_face_id) notifySuccess(PEOPLE_MESSAGES.coverSet);
      else notifySuccess(PEOPLE_MESSAGES.renamed);
    },
    onError: (error, { patch }) => {
      const fallback = patch.hidden !== undefined ? PEOPLE_MESSAGES.hideFailed : PEOPLE_MESSAGES.renameFailed;
      notifyError(errorMessage(error, fallback), fallback);
    },
    onSettled: () => refresh(queryClient, workspaceId),
  });
}

export function useMergePeople(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ into, from }: { into: string; from: string[] }) =>
      callApi(peopleApi.merge, {
        params: { id: workspaceId, personId: into },
        body: { person_ids: from },
        fallback: PEOPLE_MESSAGES.mergeFailed,
      }),
    onSuccess: (person, { from }) => notifySuccess(PEOPLE_MESSAGES.merged(from.length, personName(person))),
    onError: (error) => notifyError(errorMessage(error, PEOPLE_MESSAGES.mergeFailed), PEOPLE_MESSAGES.mergeFailed),
    onSettled: () => refresh(queryClient, workspaceId),
  });
}

export function useUpdateFace(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ faceId, patch }: { faceId: string; patch: FacePatch }): Promise<Face> =>
      callApi(peopleApi.updateFace, {
        params: { id: workspaceId, faceId },
        body: patch,
        fallback: PEOPLE_MESSAGES.faceFailed,
      }),
    onError: (error) => notifyError(errorMessage(error, PEOPLE_MESSAGES.faceFailed), PEOPLE_MESSAGES.faceFailed),
    onSettled: () => refresh(queryClient, workspaceId),
  });
}

export function useSetFaceSettings(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      callApi(peopleApi.updateSettings, {
        params: { id: workspaceId },
        body: { enabled },
        fallback: PEOPLE_MESSAGES.settingsFailed,
      }),
    onSuccess: ({ enabled }) => {
      queryClient.setQueryData(peopleKeys.settings(workspaceId), { enabled });
      notifySuccess(enabled ? PEOPLE_MESSAGES.settingsOn : PEOPLE_MESSAGES.settingsOff);
    },
    onError: (error) =>
      notifyError(errorMessage(error, PEOPLE_MESSAGES.settingsFailed), PEOPLE_MESSAGES.settingsFailed),
    onSettled: () => refresh(queryClient, workspaceId),
  });
}

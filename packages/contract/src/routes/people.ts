import { AssetParams } from "../assets.ts";
import {
  AssetFaces,
  Face,
  FaceParams,
  FacePatch,
  FaceSettings,
  FacesPage,
  PeopleAnswer,
  PeopleQuery,
  Person,
  PersonFacesQuery,
  PersonMergeBody,
  PersonParams,
  PersonPatch,
} from "../people.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "people";
const access = "workspace";

/** People: faces grouped into people (issue 32; semantics in @hangar/contract people.ts). */
export const peopleApi = {
  list: defineRoute({
    method: "GET",
    path: "/workspaces/:id/people",
    tag,
    summary: "People with their face counts and a cover face",
    access,
    params: WorkspaceParams,
    query: PeopleQuery,
    response: { 200: PeopleAnswer },
  }),
  update: defineRoute({
    method: "PATCH",
    path: "/workspaces/:id/people/:personId",
    tag,
    summary: "Name, hide or choose the cover of a person",
    access,
    params: PersonParams,
    body: PersonPatch,
    response: { 200: Person },
  }),
  merge: defineRoute({
    method: "POST",
    path: "/workspaces/:id/people/:personId/merge",
    tag,
    summary: "Merge other people into this one (remembered: the grouping never splits them again)",
    access,
    params: PersonParams,
    body: PersonMergeBody,
    response: { 200: Person },
  }),
  faces: defineRoute({
    method: "GET",
    path: "/workspaces/:id/people/:personId/faces",
    tag,
    summary: "A person's faces, best first",
    access,
    params: PersonParams,
    query: PersonFacesQuery,
    response: { 200: FacesPage },
  }),
  updateFace: defineRoute({
    method: "PATCH",
    path: "/workspaces/:id/faces/:faceId",
    tag,
    summary: "Move a face to a person, to a named person, to nobody, or away from a person",
    access,
    params: FaceParams,
    body: FacePatch,
    response: { 200: Face },
  }),
  assetFaces: defineRoute({
    method: "GET",
    path: "/workspaces/:id/assets/:assetId/faces",
    tag,
    summary: "The faces on an asset's current version, with their boxes and people",
    access,
    params: AssetParams,
    response: { 200: AssetFaces },
  }),
  settings: defineRoute({
    method: "GET",
    path: "/workspaces/:id/people/settings",
    tag,
    summary: "Whether face recognition is on in the workspace",
    access,
    params: WorkspaceParams,
    response: { 200: FaceSettings },
  }),
  updateSettings: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/people/settings",
    tag,
    summary: "Turn face recognition on or off (ADMIN); off deletes every face and person at once",
    access,
    params: WorkspaceParams,
    body: FaceSettings,
    response: { 200: FaceSettings },
  }),
};

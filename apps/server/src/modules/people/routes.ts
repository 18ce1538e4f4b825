import { peopleApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { PeopleService } from "./service.ts";

export function peopleRoutes(app: App, people: PeopleService) {
  addRoute(app, api.list, (req) => people.list(userOf(req), req.params.id, req.query.hidden));
  addRoute(app, api.update, (req) => people.update(userOf(req), req.params.id, req.params.personId, req.body));
  addRoute(app, api.merge, (req) => people.merge(userOf(req), req.params.id, req.params.personId, req.body.person_ids));
  addRoute(app, api.faces, (req) => people.faces(userOf(req), req.params.id, req.params.personId, req.query));
  addRoute(app, api.updateFace, (req) => people.updateFace(userOf(req), req.params.id, req.params.faceId, req.body));
  addRoute(app, api.assetFaces, (req) => people.assetFaces(userOf(req), req.params.id, req.params.assetId));
  addRoute(app, api.settings, (req) => people.settings(userOf(req), req.params.id));
  addRoute(app, api.updateSettings, (req) => people.setSettings(userOf(req), req.params.id, req.body.enabled));
}

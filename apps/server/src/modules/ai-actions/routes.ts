import { aiActionsApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import type { AiActionsService } from "./service.ts";

export function aiActionsRoutes(app: App, ai: AiActionsService) {
  addRoute(app, api.available, (req) => ai.available(req.actor, req.params.id));
  addRoute(app, api.create, async (req, reply) =>
    reply.status(201).send(await ai.create(req.actor, req.params.id, req.params.fieldId, req.params.optId, req.body)),
  );
  addRoute(app, api.update, (req) => ai.update(req.actor, req.params.id, req.params, req.body));
  addRoute(app, api.remove, (req) => ai.remove(req.actor, req.params.id, req.params));
  addRoute(app, api.results, (req) => ai.results(req.actor, req.params.id, req.query.object_id));
  addRoute(app, api.startRun, async (req, reply) =>
    reply.status(201).send(await ai.startRun(req.actor, req.params.id, req.body.field_id)),
  );
  addRoute(app, api.run, (req) => ai.run(req.actor, req.params.id, req.params.runId));
  addRoute(app, api.recognisedText, (req) => ai.recognisedText(req.actor, req.params.id, req.params.objectId));
}

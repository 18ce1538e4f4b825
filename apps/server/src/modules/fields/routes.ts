import { fieldsApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import type { FieldsService } from "./service.ts";

export function fieldsRoutes(app: App, fields: FieldsService) {
  addRoute(app, api.list, (req) => fields.list(req.actor, req.params.id));
  addRoute(app, api.create, async (req, reply) =>
    reply.status(201).send(await fields.create(req.actor, req.params.id, req.body)),
  );
  addRoute(app, api.reorder, (req) => fields.reorder(req.actor, req.params.id, req.body.field_ids));
  addRoute(app, api.update, (req) => fields.update(req.actor, req.params.id, req.params.fieldId, req.body));
  addRoute(app, api.remove, (req) => fields.remove(req.actor, req.params.id, req.params.fieldId));
  addRoute(app, api.createOption, async (req, reply) =>
    reply.status(201).send(await fields.createOption(req.actor, req.params.id, req.params.fieldId, req.body)),
  );
  addRoute(app, api.reorderOptions, (req) =>
    fields.reorderOptions(req.actor, req.params.id, req.params.fieldId, req.body.option_ids),
  );
  addRoute(app, api.updateOption, (req) =>
    fields.updateOption(req.actor, req.params.id, req.params.fieldId, req.params.optId, req.body),
  );
  addRoute(app, api.removeOption, (req) =>
    fields.removeOption(req.actor, req.params.id, req.params.fieldId, req.params.optId),
  );
  addRoute(app, api.assetValues, (req) => fields.values(req.actor, req.params.id, { assetId: req.params.objectId }));
  addRoute(app, api.boardValues, (req) => fields.values(req.actor, req.params.id, { boardId: req.params.objectId }));
  addRoute(app, api.setValue, (req) => fields.setValue(req.actor, req.params.id, req.params.fieldId, req.body));
}

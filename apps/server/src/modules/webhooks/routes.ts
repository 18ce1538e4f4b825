import { webhooksApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { WebhooksService } from "./service.ts";

export function webhooksRoutes(app: App, hooks: WebhooksService) {
  addRoute(app, api.list, (req) => hooks.list(userOf(req), req.params.id));
  addRoute(app, api.create, async (req, reply) =>
    reply.status(201).send(await hooks.create(userOf(req), req.params.id, req.body)),
  );
  addRoute(app, api.get, (req) => hooks.get(userOf(req), req.params.id, req.params.hookId));
  addRoute(app, api.update, (req) => hooks.update(userOf(req), req.params.id, req.params.hookId, req.body));
  addRoute(app, api.remove, async (req) => {
    await hooks.remove(userOf(req), req.params.id, req.params.hookId);
    return { status: "ok" as const };
  });
  addRoute(app, api.rollSecret, (req) => hooks.rollSecret(userOf(req), req.params.id, req.params.hookId));
  addRoute(app, api.test, (req) => hooks.test(userOf(req), req.params.id, req.params.hookId));
  addRoute(app, api.deliveries, (req) => hooks.deliveries(userOf(req), req.params.id, req.params.hookId, req.query));
  addRoute(app, api.delivery, (req) =>
    hooks.delivery(userOf(req), req.params.id, req.params.hookId, req.params.deliveryId),
  );
  addRoute(app, api.redeliver, (req) =>
    hooks.redeliver(userOf(req), req.params.id, req.params.hookId, req.params.deliveryId),
  );
}

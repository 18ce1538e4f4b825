import { apiKeysApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { ApiKeysService } from "./service.ts";

export function apiKeysRoutes(app: App, keys: ApiKeysService) {
  addRoute(app, api.list, (req) => keys.list(userOf(req), req.params.id));
  addRoute(app, api.create, async (req, reply) =>
    reply.status(201).send(await keys.create(userOf(req), req.params.id, req.body)),
  );
  addRoute(app, api.revoke, async (req) => {
    await keys.revoke(userOf(req), req.params.id, req.params.keyId);
    return { status: "ok" as const };
  });
}

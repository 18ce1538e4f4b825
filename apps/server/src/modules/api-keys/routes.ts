import { apiKeysApi as api, personalTokensApi as tokensApi } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { PersonalTokensService } from "./personal-tokens.ts";
import type { ApiKeysService } from "./service.ts";

export function apiKeysRoutes(app: App, keys: ApiKeysService, tokens: PersonalTokensService) {
  addRoute(app, api.list, (req) => keys.list(userOf(req), req.params.id));
  addRoute(app, api.create, async (req, reply) =>
    reply.status(201).send(await keys.create(userOf(req), req.params.id, req.body)),
  );
  addRoute(app, api.revoke, async (req) => {
    await keys.revoke(userOf(req), req.params.id, req.params.keyId);
    return { status: "ok" as const };
  });
  addRoute(app, tokensApi.list, (req) => tokens.list(userOf(req)));
  addRoute(app, tokensApi.create, async (req, reply) =>
    reply.status(201).send(await tokens.create(userOf(req), req.body)),
  );
  addRoute(app, tokensApi.revoke, async (req) => {
    await tokens.revoke(userOf(req), req.params.tokenId);
    return { status: "ok" as const };
  });
}

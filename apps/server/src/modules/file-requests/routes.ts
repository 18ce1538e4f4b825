import { fileRequestsApi as api, REQUEST_VISIT_HEADER, requestUploadsApi } from "@hangar/contract";
import type { FastifyRequest } from "fastify";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { linkVisits, visitorHeader } from "../public-links/index.ts";
import { REQUEST_LINKS } from "./kind.ts";
import type { RequestUploadsService } from "./public-service.ts";
import type { FileRequestsService } from "./service.ts";

export function fileRequestsRoutes(app: App, requests: FileRequestsService) {
  addRoute(app, api.listAll, (req) => requests.listAll(req.actor, req.params.id));
  addRoute(app, api.list, (req) => requests.list(req.actor, req.params.id, req.params.boardId));
  addRoute(app, api.create, async (req, reply) =>
    reply.status(201).send(await requests.create(req.actor, req.params.id, req.params.boardId, req.body)),
  );
  addRoute(app, api.update, (req) => requests.update(req.actor, req.params.id, req.params.requestId, req.body));
  addRoute(app, api.received, (req) => requests.received(req.actor, req.params.id, req.params.requestId));
  addRoute(app, api.remove, (req) => requests.remove(req.actor, req.params.id, req.params.requestId));
}

/** The public upload routes: each resolves the request first (the public links' gate), then one call. */
export function requestUploadsRoutes(
  app: App,
  deps: { requests: RequestUploadsService; secureCookies: (req: FastifyRequest) => boolean },
) {
  const { requests } = deps;
  const visit = linkVisits(REQUEST_LINKS, {
    resolve: (input, req) => requests.resolve(input, visitorHeader(req, REQUEST_VISIT_HEADER) ?? null),
    secureCookies: deps.secureCookies,
  });
  addRoute(app, requestUploadsApi.page, async (req, reply) => requests.page(await visit(req, reply)));
  addRoute(app, requestUploadsApi.init, async (req, reply) => requests.init(await visit(req, reply), req.body));
  addRoute(app, requestUploadsApi.complete, async (req, reply) => requests.complete(await visit(req, reply), req.body));
}

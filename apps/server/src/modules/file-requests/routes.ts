import {
  fileRequestsApi as api,
  REQUEST_VISIT_HEADER,
  requestUploadsApi,
  SHARE_PASSWORD_HEADER,
} from "@hangar/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { UNLOCK_TTL_SECONDS } from "../shares/visitor.ts";
import type { RequestUploadsService, RequestVisit } from "./public-service.ts";
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

/** The request's unlock cookie: sent only to that request's API path, never readable by scripts. */
const UNLOCK_COOKIE = "hangar_request";
const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === "string" && v !== "" ? v : undefined;
};

/** The public upload routes: each resolves the request first (the share links' gate), then one call. */
export function requestUploadsRoutes(
  app: App,
  deps: { requests: RequestUploadsService; secureCookies: (req: FastifyRequest) => boolean },
) {
  const { requests } = deps;
  async function visit(req: FastifyRequest, reply: FastifyReply): Promise<RequestVisit> {
    const token = (req.params as { token: string }).token;
    const got = await requests.resolve(
      { token, password: header(req, SHARE_PASSWORD_HEADER), credential: req.cookies[UNLOCK_COOKIE], ip: req.ip },
      header(req, REQUEST_VISIT_HEADER) ?? null,
    );
    if (got.credential)
      reply.setCookie(UNLOCK_COOKIE, got.credential, {
        httpOnly: true,
        sameSite: "lax",
        secure: deps.secureCookies(req),
        path: `/api/v1/request/${encodeURIComponent(token)}`,
        maxAge: UNLOCK_TTL_SECONDS,
      });
    reply.header("X-Robots-Tag", "noindex");
    return got;
  }
  addRoute(app, requestUploadsApi.page, async (req, reply) => requests.page(await visit(req, reply)));
  addRoute(app, requestUploadsApi.init, async (req, reply) => requests.init(await visit(req, reply), req.body));
  addRoute(app, requestUploadsApi.complete, async (req, reply) => requests.complete(await visit(req, reply), req.body));
}

import { sharesApi as api, SHARE_PASSWORD_HEADER, sharedApi } from "@hangar/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type App, MUTATING } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import type { SharedService, Visit } from "./public-service.ts";
import type { SharesService } from "./service.ts";
import { UNLOCK_TTL_SECONDS, type VisitorResolver } from "./visitor.ts";

export function sharesRoutes(app: App, shares: SharesService) {
  addRoute(app, api.get, (req) =>
    shares.get(req.actor, req.params.id, {
      type: req.params.contentType,
      objectId: req.params.objectId,
      boardId: req.query.board_id,
    }),
  );
  addRoute(app, api.update, (req) =>
    shares.update(
      req.actor,
      req.params.id,
      { type: req.params.contentType, objectId: req.params.objectId, boardId: req.body.board_id ?? undefined },
      req.body,
    ),
  );
  addRoute(app, api.remove, (req) =>
    shares.remove(req.actor, req.params.id, {
      type: req.params.contentType,
      objectId: req.params.objectId,
      boardId: req.query.board_id,
    }),
  );
  addRoute(app, api.listAll, (req) => shares.listAll(req.actor, req.params.id));
}

/** The unlock cookie of one link: sent only to that link's API path, never readable by scripts. */
export const UNLOCK_COOKIE = "hangar_share";
const unlockPath = (token: string) => `/api/v1/share/${encodeURIComponent(token)}`;

/** The public share routes (spec 02 §7): each resolves the visitor first, then one service call. */
export function sharedRoutes(
  app: App,
  deps: { resolver: VisitorResolver; shared: SharedService; secureCookies: (req: FastifyRequest) => boolean },
) {
  const { resolver, shared } = deps;
  async function visit(req: FastifyRequest, reply: FastifyReply): Promise<Visit> {
    const token = (req.params as { token: string }).token;
    const header = req.headers[SHARE_PASSWORD_HEADER];
    const got = await resolver.resolve({
      token,
      password: typeof header === "string" && header !== "" ? header : undefined,
      credential: req.cookies.hangar_share,
      ip: req.ip,
      // A visitor's write is judged on the link as it is now, never on the read cache.
      fresh: MUTATING.has(req.method),
    });
    if (got.credential)
      reply.setCookie(UNLOCK_COOKIE, got.credential, {
        httpOnly: true,
        sameSite: "lax",
        secure: deps.secureCookies(req),
        path: unlockPath(token),
        maxAge: UNLOCK_TTL_SECONDS,
      });
    // What a visitor sees is theirs alone: no shared cache keeps it, no search engine lists it.
    reply.header("X-Robots-Tag", "noindex");
    return got;
  }
  addRoute(app, sharedApi.payload, async (req, reply) => shared.payload(await visit(req, reply)));
  addRoute(app, sharedApi.board, async (req, reply) => shared.board(await visit(req, reply), req.query.board_id));
  addRoute(app, sharedApi.assets, async (req, reply) => shared.assets(await visit(req, reply), req.query));
  addRoute(app, sharedApi.asset, async (req, reply) => shared.asset(await visit(req, reply), req.params.assetId));
  addRoute(app, sharedApi.comments, async (req, reply) => shared.comments(await visit(req, reply), req.query));
  addRoute(app, sharedApi.comment, async (req, reply) =>
    reply.status(201).send(await shared.comment(await visit(req, reply), req.body)),
  );
  addRoute(app, sharedApi.download, async (req, reply) => shared.download(await visit(req, reply), req.body.board_id));
  addRoute(app, sharedApi.fields, async (req, reply) => shared.fields(await visit(req, reply), req.params.assetId));
  addRoute(app, sharedApi.setField, async (req, reply) =>
    shared.setField(await visit(req, reply), req.params.fieldId, req.body),
  );
}

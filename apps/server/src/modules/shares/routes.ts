import { sharesApi as api, SHARE_VISITOR_HEADER, sharedApi, WATERMARK_VISITOR_MAX } from "@hangar/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { linkVisits, visitorHeader } from "../public-links/index.ts";
import type { SharedService } from "./public-service.ts";
import type { SharesService } from "./service.ts";
import { SHARE_LINKS, type VisitorResolver } from "./visitor.ts";

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

/** The public share routes (spec 02 §7): each resolves the visitor first (the public links' gate), then one call. */
export function sharedRoutes(
  app: App,
  deps: { resolver: VisitorResolver; shared: SharedService; secureCookies: (req: FastifyRequest) => boolean },
) {
  const { resolver, shared } = deps;
  const gate = linkVisits(SHARE_LINKS, {
    resolve: (input) => resolver.resolve(input),
    secureCookies: deps.secureCookies,
  });
  // A watermark's `{visitor}`: the name or e-mail the visitor gave, kept in their browser (URI-encoded).
  const visit = async (req: FastifyRequest, reply: FastifyReply) => {
    const v = await gate(req, reply);
    const who = visitorHeader(req, SHARE_VISITOR_HEADER);
    if (who && v.visitor.watermark) {
      let name = who;
      try {
        name = decodeURIComponent(who);
      } catch {
        // sent unencoded: taken as it is
      }
      // A copy: the visit's actor may be shared (the read cache); this name is this request's only.
      const watermarkVisitor = name
        .replace(/\p{Cc}/gu, "")
        .trim()
        .slice(0, WATERMARK_VISITOR_MAX);
      return { ...v, visitor: { ...v.visitor, watermarkVisitor } };
    }
    return v;
  };
  addRoute(app, sharedApi.payload, async (req, reply) => shared.payload(await visit(req, reply)));
  addRoute(app, sharedApi.board, async (req, reply) => shared.board(await visit(req, reply), req.query.board_id));
  addRoute(app, sharedApi.assets, async (req, reply) => shared.assets(await visit(req, reply), req.query));
  addRoute(app, sharedApi.asset, async (req, reply) => shared.asset(await visit(req, reply), req.params.assetId));
  addRoute(app, sharedApi.versions, async (req, reply) => shared.versions(await visit(req, reply), req.params.assetId));
  addRoute(app, sharedApi.comments, async (req, reply) => shared.comments(await visit(req, reply), req.query));
  addRoute(app, sharedApi.comment, async (req, reply) =>
    reply.status(201).send(await shared.comment(await visit(req, reply), req.body)),
  );
  addRoute(app, sharedApi.watermarkedVideo, async (req, reply) =>
    shared.watermarkedVideo(await visit(req, reply), req.params.assetId),
  );
  addRoute(app, sharedApi.download, async (req, reply) => shared.download(await visit(req, reply), req.body.board_id));
  addRoute(app, sharedApi.recognisedText, async (req, reply) =>
    shared.recognisedText(await visit(req, reply), req.params.assetId),
  );
  addRoute(app, sharedApi.fields, async (req, reply) => shared.fields(await visit(req, reply), req.params.assetId));
  addRoute(app, sharedApi.setField, async (req, reply) =>
    shared.setField(await visit(req, reply), req.params.fieldId, req.body),
  );
}

import { reviewsApi as api, reviewLinkApi } from "@hangar/contract";
import type { FastifyRequest } from "fastify";
import { contentDisposition } from "../../platform/content-disposition.ts";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import { linkVisits } from "../public-links/index.ts";
import type { ReviewDecisions } from "./decide.ts";
import { REVIEW_LINKS } from "./kind.ts";
import type { ReviewLinks } from "./public-service.ts";
import type { ReviewReports } from "./report-service.ts";
import type { ReviewsService } from "./service.ts";

export function reviewsRoutes(
  app: App,
  deps: { reviews: ReviewsService; decisions: ReviewDecisions; reports: ReviewReports },
) {
  const { reviews } = deps;
  addRoute(app, api.create, async (req, reply) =>
    reply.status(201).send(await reviews.create(userOf(req), req.params.id, req.body)),
  );
  addRoute(app, api.list, (req) => reviews.list(userOf(req), req.params.id, req.query));
  addRoute(app, api.get, (req) => reviews.get(userOf(req), req.params.id, req.params.reviewId));
  addRoute(app, api.update, (req) => reviews.update(userOf(req), req.params.id, req.params.reviewId, req.body));
  addRoute(app, api.cancel, (req) => reviews.cancel(userOf(req), req.params.id, req.params.reviewId));
  addRoute(app, api.reopen, (req) =>
    reviews.reopen(userOf(req), req.params.id, req.params.reviewId, req.body.asset_ids),
  );
  addRoute(app, api.decide, async (req, reply) => {
    await deps.decisions.asMember(userOf(req), req.params.id, req.params.reviewId, req.body);
    return reply.status(201).send(await reviews.get(userOf(req), req.params.id, req.params.reviewId));
  });
  addRoute(app, api.reviewer, (req) =>
    reviews.reviewerLink(userOf(req), req.params.id, req.params.reviewId, req.params.reviewerId, req.body),
  );
  addRoute(app, api.report, async (req, reply) => {
    const file = await deps.reports.report(userOf(req), req.params.id, req.params.reviewId, req.query.format);
    return reply
      .header("Content-Type", file.contentType)
      .header("Content-Disposition", contentDisposition("attachment", file.filename))
      .header("Cache-Control", "no-store")
      .send(file.body);
  });
}

/** An outside reviewer's routes: each resolves the reviewer first (the public links' gate), then one call. */
export function reviewLinkRoutes(
  app: App,
  deps: { links: ReviewLinks; secureCookies: (req: FastifyRequest) => boolean },
) {
  const { links } = deps;
  const visit = linkVisits(REVIEW_LINKS, {
    resolve: (input) => links.resolve(input),
    secureCookies: deps.secureCookies,
  });
  addRoute(app, reviewLinkApi.page, async (req, reply) => links.page(await visit(req, reply)));
  addRoute(app, reviewLinkApi.asset, async (req, reply) => links.asset(await visit(req, reply), req.params.assetId));
  addRoute(app, reviewLinkApi.comments, async (req, reply) => links.comments(await visit(req, reply), req.query));
  addRoute(app, reviewLinkApi.comment, async (req, reply) =>
    reply.status(201).send(await links.comment(await visit(req, reply), req.body)),
  );
  addRoute(app, reviewLinkApi.decide, async (req, reply) =>
    reply.status(201).send(await links.decide(await visit(req, reply), req.body)),
  );
}

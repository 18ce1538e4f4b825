import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyCookie from "@fastify/cookie";
import fastifyMultipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger } from "fastify";
import { serializerCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { trustProxyOption } from "./config.ts";
import { migrationsApplied, ping } from "./db/db.ts";
import { aiActionsRoutes } from "./modules/ai-actions/routes.ts";
import { apiKeysRoutes } from "./modules/api-keys/routes.ts";
import { assetsRoutes } from "./modules/assets/routes.ts";
import { versionsRoutes } from "./modules/assets/versions-routes.ts";
import { auditRoutes } from "./modules/audit/routes.ts";
import { authRoutes } from "./modules/auth/routes.ts";
import { billingRoutes } from "./modules/billing/routes.ts";
import { boardsRoutes } from "./modules/boards/routes.ts";
import { commentsRoutes } from "./modules/comments/routes.ts";
import { downloadsRoutes } from "./modules/downloads/routes.ts";
import { fieldsRoutes } from "./modules/fields/routes.ts";
import { fileRequestsRoutes, requestUploadsRoutes } from "./modules/file-requests/routes.ts";
import { listingRoutes } from "./modules/listing/routes.ts";
import { createLiveService } from "./modules/live/index.ts";
import { liveRoutes } from "./modules/live/routes.ts";
import { mediaRoutes } from "./modules/media/routes.ts";
import { membersRoutes } from "./modules/members/routes.ts";
import { peopleRoutes } from "./modules/people/routes.ts";
import { reviewLinkRoutes, reviewsRoutes } from "./modules/reviews/routes.ts";
import { rightsRoutes } from "./modules/rights/index.ts";
import { sharePageHtml } from "./modules/shares/page-meta.ts";
import { sharedRoutes, sharesRoutes } from "./modules/shares/routes.ts";
import { similarRoutes } from "./modules/similar/routes.ts";
import { ssoRoutes } from "./modules/sso/routes.ts";
import { trashRoutes } from "./modules/trash/routes.ts";
import { uploadsRoutes } from "./modules/uploads/routes.ts";
import { AVATAR_MAX_BYTES } from "./modules/users/index.ts";
import { usersRoutes } from "./modules/users/routes.ts";
import { webhooksRoutes } from "./modules/webhooks/routes.ts";
import { workspacesRoutes } from "./modules/workspaces/routes.ts";
import { installAuditContext } from "./platform/audit-context.ts";
import { installBodyParsing } from "./platform/body-parsing.ts";
import { badUrl, installErrorHandler, installNotFound } from "./platform/error-handler.ts";
import type { App } from "./platform/http.ts";
import { RequestLogController } from "./platform/logging.ts";
import { installMetrics } from "./platform/metrics-routes.ts";
import { openApiOptions } from "./platform/openapi.ts";
import { installSecurityHeaders } from "./platform/security-headers.ts";
import {
  type ActorResolver,
  API_PREFIX,
  installSessionHook,
  isSecure,
  type RouteEntry,
} from "./platform/session-hook.ts";
import { screeningValidatorCompiler } from "./platform/validation.ts";
import type { Runtime } from "./runtime.ts";
import { directOrigins } from "./storage/blob-store.ts";

export interface AppOptions {
  /** Serve the built SPA (production start); tests leave it off. */
  serveWeb?: boolean;
  /** Who else may call (after the session): only the test harness passes one; see ActorResolver. */
  resolveActor?: ActorResolver;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Every API route with its declared access; the route-table test walks it. */
    routeTable: RouteEntry[];
  }
}

export async function buildApp(rt: Runtime, opts: AppOptions = {}): Promise<App> {
  const { config } = rt;
  await rt.listenForChanges();
  const app = Fastify({
    loggerInstance: rt.log as FastifyBaseLogger,
    // One line per request, at the level the configuration says: `debug` in a terminal (issue 35).
    logController: new RequestLogController(config.requestLogLevel),
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 2 * 1024 * 1024,
    // A path with a bad percent-encoding answers in our error shape, not the framework's.
    frameworkErrors: badUrl,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(screeningValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook("onSend", async (req, reply) => {
    reply.header("X-Request-Id", req.id);
  });

  installErrorHandler(app);
  installBodyParsing(app);
  installMetrics(app, rt.metrics, config.METRICS_TOKEN);
  installAuditContext(app);
  await app.register(fastifyCookie);
  installSecurityHeaders(app, await directOrigins(rt.store));
  await app.register(fastifyMultipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
  // The OpenAPI document (issue 36): every operation made from its contract route (platform/openapi.ts).
  await app.register(fastifySwagger, openApiOptions());
  // The docs UI styles elements inline (its own static page, no user content): a CSP that lets it,
  // and no call to the external validator.
  await app.register(fastifySwaggerUi, {
    routePrefix: "/api/docs",
    // Tags start folded: mounting all ~150 operations at once stopped swagger-ui after the first few.
    uiConfig: { validatorUrl: null, docExpansion: "none" },
    staticCSP:
      "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'none'; img-src 'self' data:; " +
      "object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'",
  });

  const routeTable: RouteEntry[] = [];
  app.decorate("routeTable", routeTable);
  installSessionHook(
    app,
    {
      auth: rt.services.auth,
      access: rt.access,
      cache: rt.cache,
      resolveActor: opts.resolveActor,
      apiKeys: rt.services.apiKeys,
      signInRule: (actor, workspaceId) => rt.services.sso.checkSignIn(actor, workspaceId),
      personalTokens: rt.services.personalTokens,
    },
    routeTable,
  );
  const cookies = { secure: config.COOKIE_SECURE, ttlDays: config.SESSION_TTL_DAYS };

  await app.register(
    async (api) => {
      const a = api.withTypeProvider<ZodTypeProvider>() as App;
      authRoutes(a, rt.services.auth, cookies);
      usersRoutes(a, rt.services.users);
      workspacesRoutes(a, rt.services.workspaces);
      membersRoutes(a, rt.services.members, rt.services.workspaces);
      boardsRoutes(a, rt.services.boards);
      assetsRoutes(a, rt.services.assets);
      versionsRoutes(a, rt.services.versions);
      uploadsRoutes(a, rt.services.uploads, config.MAX_UPLOAD_BYTES);
      downloadsRoutes(a, rt.services.downloads);
      listingRoutes(a, rt.services.listing);
      trashRoutes(a, rt.services.trash);
      similarRoutes(a, rt.services.similar);
      peopleRoutes(a, rt.services.people);
      commentsRoutes(a, rt.services.comments);
      fieldsRoutes(a, rt.services.fields);
      rightsRoutes(a, rt.services.rights);
      aiActionsRoutes(a, rt.services.aiActions);
      sharesRoutes(a, rt.services.shares);
      sharedRoutes(a, {
        resolver: rt.services.shareVisitors,
        shared: rt.services.shared,
        secureCookies: (req) => isSecure(req, cookies.secure),
      });
      fileRequestsRoutes(a, rt.services.fileRequests);
      requestUploadsRoutes(a, {
        requests: rt.services.requestUploads,
        secureCookies: (req) => isSecure(req, cookies.secure),
      });
      reviewsRoutes(a, rt.services.reviews);
      reviewLinkRoutes(a, {
        links: rt.services.reviews.links,
        secureCookies: (req) => isSecure(req, cookies.secure),
      });
      billingRoutes(a, rt.billing.service, rt.billing.webhook);
      apiKeysRoutes(a, rt.services.apiKeys, rt.services.personalTokens);
      webhooksRoutes(a, rt.services.webhooks);
      auditRoutes(a, rt.services.audit);
      ssoRoutes(a, rt.services.sso, rt.services.auth, cookies, config.publicUrl);
      liveRoutes(a, {
        hub: rt.live,
        heartbeatMs: config.LIVE_HEARTBEAT_SECONDS * 1000,
        live: createLiveService({ access: rt.access }),
      });
    },
    { prefix: API_PREFIX },
  );

  mediaRoutes(app, {
    access: rt.access,
    assets: rt.services.assets,
    store: rt.store,
    signer: rt.signer,
    onLinkDownload: (linkId) => rt.services.shares.countDownload(linkId),
    watermarks: rt.services.watermarks,
  });

  app.get("/healthz", { config: { access: "public" } }, async () => ({ status: "ok" }));
  app.get("/readyz", { config: { access: "public" } }, async (_req, reply) => {
    try {
      await ping(rt.db);
      if (!(await migrationsApplied(rt.db))) return reply.status(503).send({ status: "migrations pending" });
      return { status: "ok" };
    } catch {
      return reply.status(503).send({ status: "database unreachable" });
    }
  });

  const serveWeb = opts.serveWeb === true && existsSync(path.join(config.webDist, "index.html"));
  if (serveWeb) {
    await app.register(fastifyStatic, { root: config.webDist, wildcard: false, index: false });
    app.get("/", { config: { access: "public" } }, (_req, reply) =>
      reply.header("Cache-Control", "no-cache").sendFile("index.html"),
    );
    // The public share page: never indexed; an open link gets a preview (title, thumbnail) in chats.
    const indexHtml = readFileSync(path.join(config.webDist, "index.html"), "utf8");
    app.get("/s/:token", { config: { access: "public" } }, async (req, reply) => {
      const token = (req.params as { token: string }).token;
      const preview = await rt.services.shareVisitors
        .resolve({ token, password: undefined, credential: undefined, ip: req.ip })
        .then((visit) => rt.services.shared.preview(visit))
        .catch(() => null);
      return reply
        .header("Cache-Control", "no-store")
        .header("X-Robots-Tag", "noindex, nofollow")
        .type("text/html; charset=utf-8")
        .send(sharePageHtml(indexHtml, preview, config.publicUrl));
    });
    // A file request's upload page: the app's own page, never indexed, never cached.
    app.get("/r/:token", { config: { access: "public" } }, (_req, reply) =>
      reply
        .header("Cache-Control", "no-store")
        .header("X-Robots-Tag", "noindex, nofollow")
        .type("text/html; charset=utf-8")
        .send(indexHtml),
    );
  } else if (opts.serveWeb) {
    rt.log.warn({ webDist: config.webDist }, "the web app is not built: run `npm run build` (npm start does it)");
  }
  installNotFound(app, serveWeb ? "index.html" : null);
  return app as App;
}

import type pg from "pg";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import { createDb, createPool, type Db } from "./db/db.ts";
import { cleanupUploadsJob } from "./jobs/cleanup-uploads.ts";
import { faceDetectorLoader, facesJobs, findFacesLater } from "./jobs/detect-faces.ts";
import { finishDirectUploadsJob } from "./jobs/finish-direct-uploads.ts";
import { hashAssetsJob } from "./jobs/hash-assets.ts";
import { housekeepingJob } from "./jobs/housekeeping.ts";
import { createIdleGate } from "./jobs/idle-gate.ts";
import { processAssetJob, processAssetSpec } from "./jobs/process-asset.ts";
import { purgeAuditJob } from "./jobs/purge-audit.ts";
import { purgeTrashJob } from "./jobs/purge-trash.ts";
import { purgeWorkspacesJob } from "./jobs/purge-workspaces.ts";
import { createJobs, type JobDefinition, type Jobs } from "./jobs/queue.ts";
import { readTextJob, readTextSpec } from "./jobs/read-text.ts";
import { reviewMailsJob } from "./jobs/review-mails.ts";
import { rightsMailsJob } from "./jobs/rights-mails.ts";
import { runAiActionsJob, runAiActionsSpec } from "./jobs/run-ai-actions.ts";
import { sendEmailJob } from "./jobs/send-email.ts";
import { purgeWatermarksJob, purgeWatermarksSpec, watermarkVideoJob, watermarkVideoSpec } from "./jobs/watermarks.ts";
import { webhookDeliverJob, webhookDeliverSpec, webhookSweepJob } from "./jobs/webhooks.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { createTagger } from "./media/ai-tags.ts";
import { createOcr } from "./media/ocr.ts";
import { createAiActionsService } from "./modules/ai-actions/index.ts";
import { createApiKeysService, createPersonalTokensService } from "./modules/api-keys/index.ts";
import { createAssetsService, createVersionsService, type VersionGate } from "./modules/assets/index.ts";
import { createAuditService } from "./modules/audit/index.ts";
import { createAuthService } from "./modules/auth/index.ts";
import { createBilling } from "./modules/billing/index.ts";
import { createBoardsService } from "./modules/boards/index.ts";
import { createCommentsService } from "./modules/comments/index.ts";
import { createDownloadsService } from "./modules/downloads/index.ts";
import { createFieldsService } from "./modules/fields/index.ts";
import { createFileRequestsService, createRequestUploadsService } from "./modules/file-requests/index.ts";
import { createListingService, createWaypoints } from "./modules/listing/index.ts";
import { createMembersService } from "./modules/members/index.ts";
import { createPeopleService } from "./modules/people/index.ts";
import { createVisionRecords, hashStoredRenditions, type Tagger, type TextReader } from "./modules/processing/index.ts";
import { createPublicLinks } from "./modules/public-links/index.ts";
import { type Clock, createReviews } from "./modules/reviews/index.ts";
import { createRightsMails, createRightsService } from "./modules/rights/index.ts";
import { createSharedService, createSharesService, createVisitorResolver } from "./modules/shares/index.ts";
import { createSimilarService } from "./modules/similar/index.ts";
import { createSsoService } from "./modules/sso/index.ts";
import { createTrashService } from "./modules/trash/index.ts";
import { createUploadsService } from "./modules/uploads/index.ts";
import { createUsersService } from "./modules/users/index.ts";
import { createWatermarks } from "./modules/watermarks/index.ts";
import { createWebhooks, webhookSources } from "./modules/webhooks/index.ts";
import { createWorkspacesService } from "./modules/workspaces/index.ts";
import { sweepOrphans } from "./ops/orphans.ts";
import { createAccess } from "./platform/access.ts";
import { createLiveHub } from "./platform/live-events.ts";
import { createMetrics } from "./platform/metrics.ts";
import { createPgListener, pingThrough } from "./platform/pg-listener.ts";
import { createRateLimiter } from "./platform/rate-limit.ts";
import { createReadCache, feedReadCache, type ReadCacheFeed } from "./platform/read-cache.ts";
import { createBlobStore } from "./storage/create-store.ts";
import { loadSecret } from "./storage/secrets-repo.ts";
import { createSigner } from "./storage/signer.ts";

/** Everything a process needs, wired once: the API server and the workers share this. */
export function createRuntime(config: Config, databaseUrl: string, log: Logger) {
  const metrics = createMetrics();
  const pool: pg.Pool = createPool(databaseUrl, config.DATABASE_POOL_SIZE, log);
  const db: Db = createDb(pool);
  const jobs: Jobs = createJobs(databaseUrl, log.child({ component: "jobs" }), config.JOBS_SCHEMA, metrics);
  const mailer: Mailer = createMailer({
    db,
    log: log.child({ component: "mail" }),
    jobs,
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
  });
  const cache = createReadCache();
  // The time scheduled mails go by (reviews' reminders and gathered decisions, rights notices) and
  // that visitors' reads compare usage rights' expiry with; tests move it.
  const clock: Clock = { now: () => new Date() };
  const access = createAccess(db, cache, clock);
  // The audit log (issue 36): most rows come from the tables' triggers; this records the rest.
  const audit = createAuditService({ db, access });
  const limiter = createRateLimiter(db);
  const users = createUsersService({ db, cache, access });
  const workspaces = createWorkspacesService({ db, access });
  const serverKey = async () => config.SECRET_KEY ?? (await loadSecret(db, "url_signing"));
  const signer = createSigner(serverKey);
  const store = createBlobStore(config, signer);
  // Assets own their rows; boards file and delete them through the assets service (created first).
  // Share links' watermarked copies (issue 33): made on demand, a video's by a job.
  const watermarks = createWatermarks({
    db,
    store,
    clock,
    log: log.child({ component: "watermarks" }),
    enqueueVideo: async (job) => {
      await jobs.send(watermarkVideoSpec, job, { singletonKey: job.key });
    },
  });
  // Approvals (created below) lock approved assets' versions and hear of new current versions.
  const versionGate: VersionGate = {
    guard: (tx, assetId) => reviews.decisions.guardVersion(tx, assetId),
    changed: (tx, assetId) => reviews.decisions.versionChanged(tx, assetId),
  };
  const assets = createAssetsService({
    db,
    access,
    signer,
    cache,
    assertBoard: (ws, id) => boards.assertFileable(ws, id),
    versionGate,
    clock,
  });
  const boards = createBoardsService({ db, access, assets, similarTarget: (ws, id) => similar.liveAsset(ws, id) });
  let tagger: Promise<Tagger | null> | null = null;
  let ocr: Promise<TextReader | null> | null = null;
  const loadTaggerOnce = () =>
    (tagger ??= config.AI_TAGS ? loadTagger(config.AI_MIN_CONFIDENCE, log) : Promise.resolve(null));
  // The face detector (issue 32): its worker thread starts on first use.
  const faceDetector = faceDetectorLoader(config.FACES, log);
  const loadOcrOnce = () => (ocr ??= config.OCR ? loadOcr(log, config.OCR_TIMEOUT_MS) : Promise.resolve(null));
  // What the pipeline saw and extracted: processing writes it, the AI actions read it.
  const visionRecords = createVisionRecords({ db });
  // Actions hang on the fields' options and set their values; the fields show them on their options.
  const fields = createFieldsService({ db, access, optionActions: (ws, ids) => aiActions.byOption(ws, ids) });
  const aiActions = createAiActionsService({
    db,
    access,
    log: log.child({ component: "ai-actions" }),
    fields,
    vision: visionRecords,
    enqueueRun: async (runId) => {
      await jobs.send(runAiActionsSpec, { run_id: runId });
    },
  });
  // OCR waits while this process has assets to process (jobs/idle-gate.ts).
  const foreground = createIdleGate();
  const processJob = processAssetJob(
    {
      ...(config.OCR
        ? {
            readTextLater: async (assetId: string) => {
              await jobs.send(readTextSpec, { asset_id: assetId });
            },
          }
        : {}),
      ...(config.FACES ? { findFacesLater: findFacesLater(jobs) } : {}),
      records: visionRecords,
      saveHashes: (ws, versionId, hashes) => similar.saveHashes(ws, versionId, hashes),
      afterProcessed: async (ws, assetId) => {
        await aiActions.evaluate(ws, [assetId]);
      },
      assets,
      store,
      log: log.child({ component: "pipeline" }),
      onFailure: (reason) => metrics.pipelineFailure(reason),
      tagger: () => loadTaggerOnce(),
    },
    foreground,
  );
  const trash = createTrashService({ db, access, store, boards, assets });
  const downloads = createDownloadsService({
    db,
    access,
    signer,
    store,
    log: log.child({ component: "downloads" }),
    clock,
    audit: (r) => audit.record(r),
    // A smart board's zip holds its live result (issue 33).
    smartAssets: async (ws, boardIds, userId) => {
      const out = new Map<string, string[]>();
      for (const b of await boards.smartAmong(ws, boardIds))
        out.set(b.id, await listing.smartMatchIds(ws, b.filter, userId));
      return out;
    },
    stamp: (q) => watermarks.rendition(q),
  });
  const listing = createListingService({
    db,
    access,
    signer,
    assertBoard: (ws, id) => boards.assertLive(ws, id),
    boardKind: (ws, id) => boards.kindOf(ws, id),
    similarTarget: (ws, id) => similar.liveAsset(ws, id),
    waypoints: createWaypoints(cache),
    clock,
  });
  // A share link of a board shows its smart sub-boards' live results (issue 33).
  access.useSmartBoards(async (ws, root, assetId) => {
    const smart = await boards.smartInSubtree(ws, root);
    return (
      smart.length > 0 &&
      listing.matchesAnySaved(
        ws,
        smart.map((b) => b.filter),
        assetId,
      )
    );
  });
  // Billing first: uploads and invitations check its limits inside their own transactions.
  const billing = createBilling({ db, access, log: log.child({ component: "billing" }), config });
  const uploads = createUploadsService({
    db,
    access,
    store,
    signer,
    boards,
    assets,
    maxUploadBytes: config.MAX_UPLOAD_BYTES,
    limits: billing.limits,
    partGuard: (assetId) => requestUploads.partGuard(assetId),
    enqueueProcessing: async (assetId, versionId) => {
      await jobs.send(processAssetSpec, { asset_id: assetId, ...(versionId ? { version_id: versionId } : {}) });
    },
  });
  const ssoSettings = {
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    allowedDomains: config.OIDC_ALLOWED_DOMAINS,
    buttonText: config.OIDC_BUTTON_TEXT,
    only: config.OIDC_ONLY,
  };
  const members = createMembersService({
    db,
    access,
    mailer,
    users,
    publicUrl: config.publicUrl,
    limiter,
    limits: billing.limits,
    // Where a workspace requires single sign-on, only addresses that can sign in through it (modules/sso).
    inviteRule: (workspaceId, email) => sso.checkInvite(workspaceId, email),
  });
  const shares = createSharesService({
    db,
    access,
    onWatermarkChange: () => void jobs.send(purgeWatermarksSpec, {}).catch(() => undefined),
  });
  // Workspace API keys (issue 36): the session hook authenticates bearer secrets through it.
  const apiKeys = createApiKeysService({ db, access, limiter, findUser: (id) => users.findById(id) });
  // Personal access tokens: the same machinery, for a user in all their workspaces.
  const personalTokens = createPersonalTokensService({
    db,
    access,
    limiter,
    clock,
    findUser: (id) => users.findById(id),
  });
  const comments = createCommentsService({
    db,
    access,
    mailer,
    store,
    publicUrl: config.publicUrl,
    audit: (r) => audit.record(r),
  });
  const versions = createVersionsService({
    db,
    access,
    signer,
    getAsset: (actor, ws, id) => assets.get(actor, ws, id),
    commentsFollow: (tx, to, from) => comments.follow(tx, to, from),
    gate: versionGate,
  });
  // Similar pictures and duplicates (issue 32): groups resolve through the assets' delete and versions' stack.
  const similar = createSimilarService({
    db,
    access,
    assets: (actor, ws, ids) => assets.many(actor, ws, ids),
    remove: (actor, ws, ids) => assets.remove(actor, ws, ids),
    stack: (actor, ws, id, ids) => versions.stack(actor, ws, id, ids),
  });
  // People (issue 32): faces found after processing, grouped into people.
  const people = createPeopleService({ db, access });
  // Public links (share, request files): one token, gate, throttling and credential cookie for every kind.
  const publicLinks = createPublicLinks({ db, limiter, signer, cache });
  // The public side of share links: visitors resolved from the token, acting through the same services.
  const shareVisitors = createVisitorResolver({ links: publicLinks });
  const shared = createSharedService({
    db,
    assets,
    versions,
    listing,
    comments,
    fields,
    downloads,
    ai: aiActions,
    limiter,
    watermarks,
  });
  // File requests: upload-only links for a board, their visitors uploading through the same protocol.
  const fileRequests = createFileRequestsService({ db, access, boards, maxUploadBytes: config.MAX_UPLOAD_BYTES });
  const requestUploads = createRequestUploadsService({ db, uploads, limiter, links: publicLinks });
  // Approvals (issue 30): review requests, decisions, outside reviewers' links (a public link kind), mails.
  const reviews = createReviews({
    db,
    access,
    assets,
    comments,
    mailer,
    limiter,
    links: publicLinks,
    store,
    publicUrl: config.publicUrl,
    clock,
    audit: (r) => audit.record(r),
    log: log.child({ component: "reviews" }),
  });
  // Usage rights (issue 33): set by members; their expiry is read by access, listing and downloads.
  const rights = createRightsService({ db, access, clock });
  const rightsMails = createRightsMails({
    ...{ db, mailer, clock, publicUrl: config.publicUrl },
    log: log.child({ component: "rights" }),
  });
  // Signed webhooks (issue 36): triggers fill the outbox; workers dispatch it and deliver through jobs.
  const webhooks = createWebhooks({
    ...{ db, access, mailer, clock, serverKey, publicUrl: config.publicUrl },
    log: log.child({ component: "webhooks" }),
    allowedNetworks: config.WEBHOOK_ALLOWED_NETWORKS,
    sources: webhookSources({ assets, comments, reviews: reviews.reviews, shares, members, fileRequests }),
    enqueue: (chains) => Promise.all(chains.map((c) => jobs.send(webhookDeliverSpec, c))).then(() => undefined),
  });
  // The process's one LISTEN connection, opened with its first consumer: the read cache (API
  // processes, at start) and the live events of the SSE streams (from the first stream on).
  const listener = createPgListener({
    url: databaseUrl,
    log: log.child({ component: "listener" }),
    sendPing: pingThrough(pool),
  });
  const live = createLiveHub(listener);
  const auth = createAuthService({
    db,
    users,
    members,
    mailer,
    limiter,
    access,
    cache,
    signer,
    log: log.child({ component: "auth" }),
    publicUrl: config.publicUrl,
    sessionTtlDays: config.SESSION_TTL_DAYS,
    registrationsPerIpPerHour: config.REGISTRATIONS_PER_IP_PER_HOUR,
    audit: (r) => audit.record(r),
    passwordsOff: ssoSettings.only
      ? `Password sign-in is turned off on this server: use “${ssoSettings.buttonText}” on the sign-in page.`
      : null,
  });
  const sso = createSsoService({
    db,
    access,
    cache,
    auth,
    users,
    log: log.child({ component: "sso" }),
    publicUrl: config.publicUrl,
    settings: ssoSettings,
  });

  // Every job, defined in jobs/ (one file each) around the services that do the work.
  const jobDefinitions: JobDefinition[] = [
    sendEmailJob(mailer.deliver) as JobDefinition,
    purgeWorkspacesJob(() => workspaces.purgeExpired()) as JobDefinition,
    housekeepingJob([
      () => auth.purgeExpired(),
      () => limiter.purgeExpired(),
      () => sso.purgeExpired(),
    ]) as JobDefinition,
    processJob as JobDefinition,
    runAiActionsJob((runId) => aiActions.executeRun(runId)) as JobDefinition,
    readTextJob(
      {
        assets,
        store,
        log: log.child({ component: "text" }),
        ocr: () => loadOcrOnce(),
        records: visionRecords,
        afterText: async (ws, assetId) => {
          await aiActions.evaluate(ws, [assetId]);
        },
        cpuBudgetMs: config.OCR_CPU_BUDGET_MS,
      },
      foreground,
      config.OCR_RETRY_DELAY_SECONDS,
    ) as JobDefinition,
    // Rows without bytes (abandoned uploads), then bytes without rows (killed mid-write).
    cleanupUploadsJob(
      async () => (await uploads.cleanupAbandoned()) + (await sweepOrphans({ db, store })),
    ) as JobDefinition,
    purgeTrashJob(() => trash.purgeExpired()) as JobDefinition,
    hashAssetsJob(() => similar.backfill((row) => hashStoredRenditions(store, row))) as JobDefinition,
    reviewMailsJob(() => reviews.mails.sweep()) as JobDefinition,
    ...(facesJobs({
      people,
      jobs,
      finder: faceDetector.load,
      store,
      backfill: config.FACES,
      gate: foreground,
    }) as JobDefinition[]),
    webhookDeliverJob((endpointId, key) => webhooks.deliverer.deliverChain(endpointId, key)) as JobDefinition,
    webhookSweepJob(
      () => webhooks.sweep(),
      () => webhooks.listen(listener),
    ) as JobDefinition,
    purgeAuditJob(() => audit.purge()) as JobDefinition,
    rightsMailsJob(() => rightsMails.sweep()) as JobDefinition,
    watermarkVideoJob((job) => watermarks.burn(job)) as JobDefinition,
    purgeWatermarksJob(() => watermarks.purge()) as JobDefinition,
  ];
  // On S3 a direct upload's PUT never reaches us: finish those whose client did not complete them.
  if (store.kind === "s3")
    jobDefinitions.push(finishDirectUploadsJob(() => uploads.completeArrivedDirect()) as JobDefinition);

  let cacheFeed: ReadCacheFeed | null = null;

  return {
    config,
    log,
    pool,
    cache,
    /**
     * Starts hearing change notifications so the read cache can answer (API processes; READ_CACHE=0
     * turns it off). Waits a moment for the first LISTEN; the cache stays off until it succeeds.
     */
    async listenForChanges() {
      if (!config.READ_CACHE || cacheFeed) return;
      cacheFeed = feedReadCache(listener, cache);
      await cacheFeed.ready();
    },
    db,
    jobs,
    jobDefinitions,
    metrics,
    mailer,
    access,
    limiter,
    store,
    signer,
    listener,
    live,
    billing,
    publicLinks,
    webhooks,
    clock,
    services: {
      users,
      workspaces,
      members,
      auth,
      boards,
      assets,
      versions,
      similar,
      people,
      uploads,
      trash,
      listing,
      downloads,
      comments,
      fields,
      aiActions,
      shares,
      shareVisitors,
      watermarks,
      shared,
      fileRequests,
      requestUploads,
      reviews,
      rights,
      rightsMails,
      apiKeys,
      sso,
      personalTokens,
      webhooks: webhooks.service,
      audit,
    },
    /** The tagger and OCR as the jobs get them (started on first use; tests of the shutdown call them). */
    vision: { tagger: loadTaggerOnce, ocr: loadOcrOnce, faces: faceDetector.load },
    /** Stops hearing changes: the read cache answers nothing from now on (bench/http's comparison). */
    async stopListening() {
      cacheFeed?.close();
      cacheFeed = null;
    },
    async close(jobsTimeoutMs?: number) {
      await jobs
        .stop(jobsTimeoutMs)
        .catch((err) => log.warn({ err: { message: (err as Error).message } }, "job engine stop failed"));
      await webhooks.close();
      if (tagger) await (await tagger.catch(() => null))?.close?.();
      if (ocr) await (await ocr.catch(() => null))?.close?.();
      await faceDetector.close();
      await aiActions.close();
      await store.close?.();
      cacheFeed?.close();
      live.close();
      await listener.close();
      await db.destroy();
    },
  };
}
export type Runtime = ReturnType<typeof createRuntime>;

/**
 * The local vision model, loaded on first use in a worker thread; null (tags off) if it cannot load.
 * Its module is imported with the runtime, not on first use: a Ctrl-C signals the whole process group,
 * tsx's esbuild service with it, and a job still draining then could not compile it ("The service is
 * no longer running", logged as an error at every such stop).
 */
async function loadTagger(minConfidence: number, log: Logger): Promise<Tagger | null> {
  try {
    return createTagger({ minConfidence });
  } catch (err) {
    log.error(
      { err: { message: (err as Error).message } },
      "AI tagger unavailable; assets are processed without AI tags",
    );
    return null;
  }
}

/** OCR, started on first use in a worker thread; null (no text) if it cannot load (imported with the runtime: see loadTagger). */
async function loadOcr(log: Logger, timeoutMs: number): Promise<TextReader | null> {
  try {
    return createOcr({ timeoutMs });
  } catch (err) {
    log.error({ err: { message: (err as Error).message } }, "OCR unavailable; assets are processed without text");
    return null;
  }
}

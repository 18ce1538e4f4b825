import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { Access } from "../../platform/access.ts";
import { addressPolicy } from "../../platform/outbound.ts";
import type { PgListener } from "../../platform/pg-listener.ts";
import type { AssetsService } from "../assets/index.ts";
import type { CommentsService } from "../comments/index.ts";
import type { FileRequestsService } from "../file-requests/index.ts";
import type { MembersService } from "../members/index.ts";
import type { Reviews } from "../reviews/index.ts";
import type { SharesService } from "../shares/index.ts";
import type { Clock } from "./clock.ts";
import { createDeliverer } from "./deliver.ts";
import { deliveriesRepo } from "./deliveries-repo.ts";
import { type Chain, createDispatcher } from "./dispatch.ts";
import type { ObjectSources } from "./objects.ts";
import { createSecretBox } from "./secret-box.ts";
import { createWebhooksService } from "./service.ts";

export { backoffMs, DELIVERY_TIMEOUT_MS, DISABLE_AFTER_MS, RESPONSE_BYTES } from "./deliver.ts";
export { RETRY_FOR_MS } from "./dispatch.ts";
export { WEBHOOK } from "./policy.ts";
export type { WebhooksService } from "./service.ts";
export { signatureHeader, verifySignature } from "./signature.ts";

/** Where `hangar_webhook_event()` (migration 20261206-3602) announces outbox rows, at commit. */
export const WEBHOOKS_CHANNEL = "hangar_webhooks";
/** Delivery log rows (and dispatched events) are kept this long. */
export const LOG_RETENTION_MS = 30 * 24 * 3600_000;

/** The objects of events, read through the services the routes answer with. */
export const webhookSources = (s: {
  assets: Pick<AssetsService, "getAny">;
  comments: Pick<CommentsService, "get">;
  reviews: Pick<Reviews["reviews"], "get">;
  shares: Pick<SharesService, "byId">;
  members: Pick<MembersService, "get">;
  fileRequests: Pick<FileRequestsService, "get">;
}): ObjectSources => ({
  asset: (a, ws, id) => s.assets.getAny(a, ws, id),
  comment: (a, ws, id) => s.comments.get(a, ws, id),
  review: (a, ws, id) => s.reviews.get(a, ws, id),
  share: (a, ws, id) => s.shares.byId(a, ws, id),
  member: (a, ws, id) => s.members.get(a, ws, id),
  uploadLink: (a, ws, id) => s.fileRequests.get(a, ws, id),
});

/** Works through `items`, `width` at a time, starting none after `budgetMs` (the next run takes the rest). */
async function inParallel<T>(items: T[], width: number, budgetMs: number, work: (item: T) => Promise<unknown>) {
  const end = performance.now() + budgetMs;
  let next = 0;
  const lane = async () => {
    while (next < items.length && performance.now() < end) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

/**
 * Signed webhooks (issue 36, docs/architecture.md §4.5): endpoints and their log (service.ts), the
 * outbox's dispatcher (dispatch.ts), attempts with backoff in order per object (deliver.ts), the
 * guarded HTTP client (platform/outbound.ts) and secrets sealed at rest (secret-box.ts).
 */
export function createWebhooks(deps: {
  db: Db;
  access: Access;
  mailer: Mailer;
  clock: Clock;
  log: Logger;
  publicUrl: string;
  allowedNetworks: readonly string[];
  /** The server's key (SECRET_KEY, else the one generated into the database): secrets are sealed with it. */
  serverKey: () => Promise<string>;
  sources: ObjectSources;
  /** Queues the delivery of chains (a job each); called after the dispatch's commit. */
  enqueue: (chains: Chain[]) => Promise<void>;
  timeoutMs?: number;
}) {
  const { db, clock } = deps;
  const box = createSecretBox(deps.serverKey);
  const policy = addressPolicy(deps.allowedNetworks);
  const dispatcher = createDispatcher({ db, sources: deps.sources, clock, log: deps.log, enqueue: deps.enqueue });
  const deliverer = createDeliverer({ ...deps, box, policy });
  const service = createWebhooksService({ db, access: deps.access, box, policy, clock, deliverer });
  return {
    service,
    dispatcher,
    deliverer,
    /** What the scheduled job runs (tests call it with a time of their own). */
    async sweep(at = clock.now()) {
      await dispatcher.kick();
      const chains = await deliveriesRepo.dueChains(db, at, 500);
      // A minute's run, as the schedule's: chains left over are still due at the next.
      await inParallel(chains, 4, 50_000, (c) => deliverer.deliverChain(c.endpoint_id, c.object_key, at));
      await deliveriesRepo.purge(db, new Date(at.getTime() - LOG_RETENTION_MS));
    },
    /** Ends dispatching (the runtime's close, before the database's). */
    close: () => dispatcher.stop(),
    /** Hears the outbox on the process's one listener (workers): events are dispatched as they commit. */
    listen(listener: PgListener): () => void {
      return listener.subscribe({
        channel: WEBHOOKS_CHANNEL,
        onNotify: () => void dispatcher.kick(),
        // Heard again after a loss: what committed meanwhile is in the outbox still.
        onLive: () => void dispatcher.kick(),
        onLost() {},
      });
    },
  };
}
export type Webhooks = ReturnType<typeof createWebhooks>;

import { randomUUID } from "node:crypto";
import { WEBHOOK_HEADERS } from "@hangar/contract";
import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import { composeMail } from "../../mail/compose.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { type AddressPolicy, type OutboundResult, postOnce } from "../../platform/outbound.ts";
import type { Clock } from "./clock.ts";
import { deliveriesRepo, type NewDelivery } from "./deliveries-repo.ts";
import type { Chain } from "./dispatch.ts";
import { endpointsRepo } from "./repo.ts";
import type { SecretBox } from "./secret-box.ts";
import { signatureHeader } from "./signature.ts";

/** A 2xx within this long counts as delivered. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of an answer the log keeps. */
export const RESPONSE_BYTES = 1024;
/** An endpoint whose deliveries have failed for this long is disabled and its ADMINs are mailed. */
export const DISABLE_AFTER_MS = 24 * 3600_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 3600_000;

/** The wait after the n-th failed attempt: 30 s, 1 min, 2 min, … doubling, at most an hour. */
export const backoffMs = (attempt: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), MAX_RETRY_MS);

export const DISABLED_REASON = "Deliveries failed for a day.";
const DISABLED_PENDING = "Not sent: the endpoint was disabled.";

/**
 * Attempts (docs/architecture.md §4.5): each claims the oldest pending delivery of one endpoint about
 * one object, so an object's events arrive in order and two workers never send one twice. A failure
 * waits its backoff (the chain behind it waits too); after `give_up_at` it fails for good. The
 * endpoint is `failing` from its first failure until a success; failing for a day, it is disabled,
 * its waiting deliveries fail, and its ADMINs get one mail.
 */
export function createDeliverer(deps: {
  db: Db;
  box: SecretBox;
  policy: AddressPolicy;
  clock: Clock;
  mailer: Mailer;
  publicUrl: string;
  log: Logger;
  enqueue: (chains: Chain[]) => Promise<void>;
  timeoutMs?: number;
}) {
  const { db, clock, log } = deps;

  /** One POST of a body, signed now (the receiver checks the timestamp against its own clock). */
  async function send(url: string, secretBox: string, eventId: string, body: string): Promise<OutboundResult> {
    let secret: string;
    try {
      secret = await deps.box.open(secretBox);
    } catch (err) {
      const error = `The signing secret cannot be read (${(err as Error).message}): roll the secret.`;
      return { ok: false, status: null, body: null, error, durationMs: 0 };
    }
    const t = Math.floor(Date.now() / 1000);
    return postOnce(
      url,
      body,
      {
        "content-type": "application/json",
        "user-agent": "Hangar-Webhooks/1",
        [WEBHOOK_HEADERS.eventId]: eventId,
        [WEBHOOK_HEADERS.timestamp]: String(t),
        [WEBHOOK_HEADERS.signature]: signatureHeader(secret, t, body),
      },
      { policy: deps.policy, timeoutMs: deps.timeoutMs ?? DELIVERY_TIMEOUT_MS, maxBodyBytes: RESPONSE_BYTES },
    );
  }

  /**
   * It answered: not failing any more. After a person's test or redelivery, what waited for its
   * backoff is due now too (a delivery's own success does not hurry the others: one object the
   * receiver keeps refusing would then be retried at every other object's event).
   */
  async function recovered(endpointId: string, at: Date, hurry: boolean) {
    if (!(await endpointsRepo.markHealthy(db, endpointId)) || !hurry) return;
    const waiting = await deliveriesRepo.dueNow(db, endpointId, at);
    const chains = new Map(waiting.map((w) => [w.object_key, w]));
    if (chains.size) await deps.enqueue([...chains.values()]);
  }

  async function disable(endpointId: string, lastError: string | null) {
    if (!(await endpointsRepo.disable(db, endpointId, DISABLED_REASON))) return;
    await deliveriesRepo.failPending(db, endpointId, DISABLED_PENDING);
    const target = await endpointsRepo.target(db, endpointId);
    if (!target) return;
    log.warn(
      { endpoint: endpointId, workspace: target.workspace_id },
      "webhook endpoint disabled after a day of failures",
    );
    for (const admin of await endpointsRepo.admins(db, target.workspace_id)) {
      await deps.mailer.send(
        composeMail({
          to: admin.email,
          subject: "A webhook endpoint was disabled on Hangar",
          paragraphs: [
            `Deliveries to ${target.url} in "${admin.workspace_name}" have failed for a day, so Hangar disabled the endpoint.`,
            ...(lastError ? [`The last attempt: ${lastError}`] : []),
            "Fix the endpoint, then enable it again in Settings → Webhooks. Redeliver sends a failed delivery again.",
          ],
          link: {
            label: "Open Settings → Webhooks",
            url: `${deps.publicUrl}/w/${target.workspace_id}/settings/webhooks`,
          },
        }),
      );
    }
  }

  /** Delivers a chain's due deliveries in order, until one fails or none is due. Answers how many were attempted. */
  async function deliverChain(endpointId: string, objectKey: string, at?: Date): Promise<number> {
    let attempted = 0;
    for (; attempted < 1000; attempted++) {
      const now = at ?? clock.now();
      const claim = randomUUID();
      const d = await deliveriesRepo.claimHead(db, endpointId, objectKey, now, claim);
      if (!d) break;
      const r = await send(d.url, d.secret_box, d.event_id, d.body);
      const result = {
        at: now,
        response_status: r.status,
        response_body: r.body,
        error: r.error,
        duration_ms: r.durationMs,
      };
      if (r.ok) {
        await deliveriesRepo.record(db, d.id, claim, { ...result, status: "delivered", next_attempt_at: null });
        await recovered(endpointId, now, false);
        continue;
      }
      const giveUp = now.getTime() >= d.give_up_at.getTime();
      const next = new Date(Math.min(now.getTime() + backoffMs(d.attempts), d.give_up_at.getTime()));
      await deliveriesRepo.record(db, d.id, claim, {
        ...result,
        status: giveUp ? "failed" : "pending",
        next_attempt_at: giveUp ? null : next,
      });
      const since = await endpointsRepo.markFailing(db, endpointId, now);
      if (since && now.getTime() - since.getTime() >= DISABLE_AFTER_MS) await disable(endpointId, r.error);
      attempted++;
      break;
    }
    return attempted;
  }

  /**
   * One attempt now, outside any chain (a test event, a redelivery): logged as a delivery of its own,
   * never retried, and never counted against the endpoint (a success still tells it is back).
   */
  async function attemptOnce(
    endpoint: { id: string; workspace_id: string; url: string; secret_box: string },
    d: Pick<NewDelivery, "event_id" | "type" | "body" | "is_test" | "redelivery_of">,
  ): Promise<string> {
    const at = clock.now();
    const r = await send(endpoint.url, endpoint.secret_box, d.event_id, d.body);
    const { id } = await deliveriesRepo.insertAttempted(db, {
      ...d,
      endpoint_id: endpoint.id,
      workspace_id: endpoint.workspace_id,
      object_key: `once:${randomUUID()}`,
      status: r.ok ? "delivered" : "failed",
      attempts: 1,
      at,
      created_at: at,
      give_up_at: at,
      next_attempt_at: null,
      response_status: r.status,
      response_body: r.body,
      error: r.error,
      duration_ms: r.durationMs,
    });
    if (r.ok) await recovered(endpoint.id, at, true);
    return id;
  }

  return { deliverChain, attemptOnce };
}
export type Deliverer = ReturnType<typeof createDeliverer>;

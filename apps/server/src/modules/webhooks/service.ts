import { randomUUID } from "node:crypto";
import { isIP } from "node:net";
import {
  type CreateWebhookBody,
  type UpdateWebhookBody,
  WEBHOOK_LIMIT,
  WEBHOOK_MESSAGES,
  WEBHOOK_TEST_EVENT,
  type Webhook,
  type WebhookDeliveryDetail,
  type WebhookDeliveryList,
  type WebhookWithSecret,
} from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import type { AddressPolicy } from "../../platform/outbound.ts";
import type { Clock } from "./clock.ts";
import type { Deliverer } from "./deliver.ts";
import { deliveriesRepo } from "./deliveries-repo.ts";
import { WEBHOOK } from "./policy.ts";
import { endpointsRepo } from "./repo.ts";
import type { SecretBox } from "./secret-box.ts";
import { toDelivery, toDeliveryDetail, toWebhook } from "./serialize.ts";
import { newSigningSecret } from "./signature.ts";

const NOT_FOUND = "Webhook endpoint not found.";
const DISABLED_BY_PERSON = "Not sent: the endpoint was disabled.";

/**
 * Managing endpoints (issue 36): ADMINs only, every route (a member of another role 403, an outsider
 * 404). The signing secret is answered when created or rolled, and never again.
 */
export function createWebhooksService(deps: {
  db: Db;
  access: Access;
  box: SecretBox;
  policy: AddressPolicy;
  clock: Clock;
  deliverer: Deliverer;
}) {
  const { db, access } = deps;
  const require = (actor: UserActor, ws: string) => access.require(actor, WEBHOOK.manage, inWorkspace(ws));

  async function found(ws: string, id: string) {
    const row = await endpointsRepo.get(db, ws, id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  /** An address in the URL is judged at once (a name only when a delivery resolves it: DNS may change). */
  function checkUrl(url: string) {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    if (!isIP(host)) return;
    const why = deps.policy.refusal(host);
    if (!why) return;
    const detail = `Webhooks may not call ${why.address}, ${why.what}: only public addresses (the server's WEBHOOK_ALLOWED_NETWORKS can allow others).`;
    throw invalid(detail, [{ field: "url", message: detail }]);
  }

  async function withSecret(ws: string, id: string, secret: string): Promise<WebhookWithSecret> {
    return { ...toWebhook(await found(ws, id)), secret };
  }

  async function detail(endpointId: string, deliveryId: string): Promise<WebhookDeliveryDetail> {
    const d = await deliveriesRepo.get(db, endpointId, deliveryId);
    if (!d) throw notFound("Delivery not found.");
    return toDeliveryDetail(d);
  }

  return {
    async list(actor: UserActor, ws: string) {
      await require(actor, ws);
      return { data: (await endpointsRepo.list(db, ws)).map(toWebhook) };
    },

    async create(actor: UserActor, ws: string, body: CreateWebhookBody): Promise<WebhookWithSecret> {
      await require(actor, ws);
      checkUrl(body.url);
      const secret = newSigningSecret();
      const secretBox = await deps.box.seal(secret);
      const id = await db.transaction().execute(async (tx) => {
        if ((await endpointsRepo.countLocked(tx, ws)) >= WEBHOOK_LIMIT)
          throw new AppError("CONFLICT", WEBHOOK_MESSAGES.limit);
        return endpointsRepo.insert(tx, {
          workspace_id: ws,
          url: body.url,
          description: body.description ?? "",
          events: body.events,
          secret_box: secretBox,
          created_by: actor.userId,
        });
      });
      return withSecret(ws, id, secret);
    },

    async get(actor: UserActor, ws: string, id: string): Promise<Webhook> {
      await require(actor, ws);
      return toWebhook(await found(ws, id));
    },

    async update(actor: UserActor, ws: string, id: string, body: UpdateWebhookBody): Promise<Webhook> {
      await require(actor, ws);
      const before = await found(ws, id);
      if (body.url !== undefined) checkUrl(body.url);
      const patch: Parameters<typeof endpointsRepo.update>[3] = {};
      if (body.url !== undefined) patch.url = body.url;
      if (body.description !== undefined) patch.description = body.description;
      if (body.events !== undefined) patch.events = body.events;
      if (body.enabled !== undefined && body.enabled !== before.enabled) {
        patch.enabled = body.enabled;
        // Enabled again: a fresh start. Disabled by a person: no reason of Hangar's to show.
        patch.disabled_reason = null;
        patch.failing_since = null;
      }
      await endpointsRepo.update(db, ws, id, patch);
      if (body.enabled === false) await deliveriesRepo.failPending(db, id, DISABLED_BY_PERSON);
      return toWebhook(await found(ws, id));
    },

    async remove(actor: UserActor, ws: string, id: string) {
      await require(actor, ws);
      if (!(await endpointsRepo.remove(db, ws, id))) throw notFound(NOT_FOUND);
    },

    async rollSecret(actor: UserActor, ws: string, id: string): Promise<WebhookWithSecret> {
      await require(actor, ws);
      await found(ws, id);
      const secret = newSigningSecret();
      await endpointsRepo.update(db, ws, id, { secret_box: await deps.box.seal(secret) });
      return withSecret(ws, id, secret);
    },

    /** A `webhook.test` event now, one attempt; the answer says how it went (it is in the log too). */
    async test(actor: UserActor, ws: string, id: string): Promise<WebhookDeliveryDetail> {
      await require(actor, ws);
      const row = await found(ws, id);
      const target = (await endpointsRepo.target(db, id))!;
      const eventId = randomUUID();
      const body = JSON.stringify({
        id: eventId,
        type: WEBHOOK_TEST_EVENT,
        created_at: deps.clock.now().toISOString(),
        workspace_id: ws,
        data: { object: toWebhook(row) },
      });
      const deliveryId = await deps.deliverer.attemptOnce(target, {
        event_id: eventId,
        type: WEBHOOK_TEST_EVENT,
        body,
        is_test: true,
      });
      return detail(id, deliveryId);
    },

    async deliveries(
      actor: UserActor,
      ws: string,
      id: string,
      q: { before?: string | undefined; limit: number },
    ): Promise<WebhookDeliveryList> {
      await require(actor, ws);
      await found(ws, id);
      const rows = await deliveriesRepo.list(db, id, q.before, q.limit);
      return {
        data: rows.map(toDelivery),
        next_cursor: rows.length === q.limit ? String(rows[rows.length - 1]!.seq) : null,
      };
    },

    async delivery(actor: UserActor, ws: string, id: string, deliveryId: string): Promise<WebhookDeliveryDetail> {
      await require(actor, ws);
      await found(ws, id);
      return detail(id, deliveryId);
    },

    /** The same event (id and body) again, now, to the endpoint's current URL: one attempt, logged on its own. */
    async redeliver(actor: UserActor, ws: string, id: string, deliveryId: string): Promise<WebhookDeliveryDetail> {
      await require(actor, ws);
      await found(ws, id);
      const original = await deliveriesRepo.get(db, id, deliveryId);
      if (!original) throw notFound("Delivery not found.");
      const target = (await endpointsRepo.target(db, id))!;
      const newId = await deps.deliverer.attemptOnce(target, {
        event_id: original.event_id,
        type: original.type,
        body: original.body,
        is_test: original.is_test,
        redelivery_of: original.id,
      });
      return detail(id, newId);
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;

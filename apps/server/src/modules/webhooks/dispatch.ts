import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import type { UserActor } from "../../platform/actor.ts";
import type { Clock } from "./clock.ts";
import { deliveriesRepo, type NewDelivery } from "./deliveries-repo.ts";
import { eventBody, eventData, type ObjectSources, type OutboxEvent, workspaceActor } from "./objects.ts";
import { endpointsRepo } from "./repo.ts";

/** Deliveries are retried for a day after they are made. */
export const RETRY_FOR_MS = 24 * 3600_000;
const BATCH = 100;

export interface Chain {
  endpoint_id: string;
  object_key: string;
}

/**
 * Turns the outbox's events into deliveries (docs/architecture.md §4.5): one worker at a time (an
 * advisory lock), events in `seq` order, each rendered once (the object as the API answers it) and
 * copied to every enabled endpoint that wants it, the events marked dispatched in the same
 * transaction. The chains that got deliveries are handed to `enqueue` after the commit.
 */
export function createDispatcher(deps: {
  db: Db;
  sources: ObjectSources;
  clock: Clock;
  log: Logger;
  enqueue: (chains: Chain[]) => Promise<void>;
}) {
  const { db, clock, log } = deps;

  async function render(ev: OutboxEvent, actor: UserActor | null): Promise<string> {
    try {
      return eventBody(ev, await eventData(ev, actor, deps.sources));
    } catch (err) {
      // One event that cannot be read must not hold up the outbox: it leaves with its object's id.
      log.warn({ err: { message: (err as Error).message }, event: ev.id, type: ev.type }, "webhook event not rendered");
      return eventBody(ev, { object: { id: ev.object_id } });
    }
  }

  async function batch(): Promise<{ count: number; chains: Chain[] }> {
    return db.transaction().execute(async (tx) => {
      await deliveriesRepo.lockDispatch(tx);
      const events = await deliveriesRepo.pendingEvents(tx, BATCH);
      const at = clock.now();
      const actors = new Map<string, UserActor | null>();
      const rows: NewDelivery[] = [];
      for (const ev of events) {
        const endpoints = await endpointsRepo.wanting(tx, ev.workspace_id, ev.type);
        if (endpoints.length === 0) continue;
        if (!actors.has(ev.workspace_id)) {
          const user = await endpointsRepo.actingUser(tx, ev.workspace_id);
          actors.set(ev.workspace_id, user ? workspaceActor(ev.workspace_id, user) : null);
        }
        const body = await render(ev, actors.get(ev.workspace_id) ?? null);
        for (const e of endpoints) {
          rows.push({
            endpoint_id: e.id,
            workspace_id: ev.workspace_id,
            event_id: ev.id,
            type: ev.type,
            object_key: ev.object_key,
            body,
            next_attempt_at: at,
            give_up_at: new Date(at.getTime() + RETRY_FOR_MS),
            created_at: at,
          });
        }
      }
      const made = await deliveriesRepo.insert(tx, rows);
      await deliveriesRepo.markDispatched(
        tx,
        events.map((e) => e.seq),
      );
      const chains = new Map(made.map((m) => [`${m.endpoint_id} ${m.object_key}`, m]));
      return {
        count: events.length,
        chains: [...chains.values()].map((c) => ({ endpoint_id: c.endpoint_id, object_key: c.object_key })),
      };
    });
  }

  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  /** Dispatches until the outbox is empty; a kick while running makes it look once more. */
  function kick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        if (stopped) break;
        for (;;) {
          const { count, chains } = await batch();
          if (chains.length) await deps.enqueue(chains);
          if (count < BATCH) break;
        }
      } while (again);
    })()
      .catch((err: Error) => log.warn({ err: { message: err.message } }, "webhook dispatch failed; the sweep retries"))
      .finally(() => {
        running = null;
      });
    return running;
  }

  /** Kicks are ignored from now on; resolves once a dispatch under way is done (before the pool closes). */
  async function stop(): Promise<void> {
    stopped = true;
    await running;
  }

  return { kick, stop };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;

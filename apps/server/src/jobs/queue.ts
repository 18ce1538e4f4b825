import { type Job, PgBoss } from "pg-boss";
import type { Logger } from "pino";
import type { z } from "zod";
import type { Metrics } from "../platform/metrics.ts";

/** What sending a job needs: its queue's name and its payload's schema (in @hangar/contract). */
export interface JobSpec<S extends z.ZodType = z.ZodType> {
  name: string;
  payload: S;
}

/**
 * A job (one file each in this folder): a name, a zod payload, and a handler that is safe to run
 * twice (docs/architecture.md §3).
 */
export interface JobDefinition<S extends z.ZodType = z.ZodType> extends JobSpec<S> {
  retryLimit?: number;
  retryDelaySeconds?: number;
  expireInSeconds?: number;
  /** A worker that stops heart-beating for this long loses the job to another (a killed worker). */
  heartbeatSeconds?: number;
  /** Cron schedule for periodic jobs (UTC). */
  cron?: string;
  /**
   * Jobs that take seconds to minutes (transcoding, documents): each of the `concurrency` slots takes
   * one job at a time and the next as soon as it is free. With batches, one slot could claim several
   * long jobs and work them in turn while the other slot idled (bench/video measured 0.75× ffmpeg run
   * by hand on four clips before this).
   */
  oneAtATime?: boolean;
  /** With `oneAtATime`: at most this many slots per process, whatever `concurrency` says (OCR: one). */
  slots?: number;
  /** Called once when this process starts working the queue (webhooks: start hearing the outbox). */
  onWork?: () => void;
  /** `job.retryCount`: 0 on the first try (a handler may try harder on later ones). */
  handle(data: z.infer<S>, job: { retryCount: number }): Promise<void>;
}

export const DEAD_LETTER_QUEUE = "dead-letter";

export interface Jobs {
  boss: PgBoss;
  send<S extends z.ZodType>(
    def: JobSpec<S>,
    data: z.infer<S>,
    options?: { singletonKey?: string },
  ): Promise<string | null>;
  /** Registers queues (always) and workers (when `work` is true), then schedules cron jobs. */
  start(defs: JobDefinition[], opts: { work: boolean; concurrency: number }): Promise<void>;
  /** Stops fetching; waits up to `timeoutMs` for running jobs (a job cut off runs again after its lease). */
  stop(timeoutMs?: number): Promise<void>;
}

export function createJobs(connectionString: string, log: Logger, schema = "pgboss", metrics?: Metrics): Jobs {
  // Supervision every 10 s: a job whose worker died (no heartbeat) goes back to the queue in well
  // under a minute, never after the hours-long default expiry.
  const boss = new PgBoss({
    connectionString,
    schema,
    max: 4,
    application_name: "hangar-jobs",
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
  });
  boss.on("error", (err) => log.error({ err: { message: err.message } }, "job engine error"));
  let started = false;
  let queueNames: string[] = [];
  metrics?.onCollect(async () => {
    if (!started || queueNames.length === 0) return;
    for (const q of await boss.getQueues(queueNames)) {
      metrics.setQueueDepth(q.name, "ready", q.readyCount);
      metrics.setQueueDepth(q.name, "deferred", q.deferredCount);
      metrics.setQueueDepth(q.name, "active", q.activeCount);
      metrics.setQueueDepth(q.name, "failed", q.failedCount);
    }
  });

  return {
    boss,
    async send(def, data, options) {
      const payload = def.payload.parse(data);
      return boss.send(def.name, payload as object, { singletonKey: options?.singletonKey });
    },
    async start(defs, { work, concurrency }) {
      if (!started) {
        await boss.start();
        started = true;
      }
      // Jobs that used up their retries land here, kept for inspection instead of vanishing.
      await boss.createQueue(DEAD_LETTER_QUEUE, { retentionSeconds: 30 * 86_400 });
      queueNames = [DEAD_LETTER_QUEUE, ...defs.map((d) => d.name)];
      for (const def of defs) {
        await boss.createQueue(def.name, {
          deadLetter: DEAD_LETTER_QUEUE,
          retryLimit: def.retryLimit ?? 5,
          retryDelay: def.retryDelaySeconds ?? 10,
          retryBackoff: true,
          expireInSeconds: def.expireInSeconds ?? 15 * 60,
          ...(def.heartbeatSeconds ? { heartbeatSeconds: def.heartbeatSeconds } : {}),
        });
        if (def.cron) await boss.schedule(def.name, def.cron, {});
        if (!work) continue;
        def.onWork?.();
        const runJob = async (job: Job<unknown>) => {
          const started = performance.now();
          try {
            await def.handle(def.payload.parse(job.data), { retryCount: job.retryCount ?? 0 });
            metrics?.observeJob(def.name, "completed", (performance.now() - started) / 1000);
            log.debug({ job: def.name, id: job.id, ms: Math.round(performance.now() - started) }, "job done");
            return { id: job.id, status: "completed" as const };
          } catch (err) {
            log.warn({ job: def.name, id: job.id, err: { message: (err as Error).message } }, "job failed");
            metrics?.observeJob(def.name, "failed", (performance.now() - started) / 1000);
            return { id: job.id, status: "failed" as const, output: { message: (err as Error).message } };
          }
        };
        if (def.oneAtATime) {
          // One worker per slot, one job per fetch. pg-boss waits out its 0.5 s poll after a short job;
          // a slot that just finished one asks for the next at once (notifyWorker skips that wait), so
          // a queue of many short jobs still drains without pauses, and an idle slot polls as usual.
          for (let slot = 0; slot < Math.min(concurrency, def.slots ?? concurrency); slot++) {
            let workerId = "";
            workerId = await boss.work(
              def.name,
              { batchSize: 1, localConcurrency: 1, pollingIntervalSeconds: 0.5, perJobResults: true },
              async (batch: Job<unknown>[]) => {
                const results = [];
                for (const job of batch) results.push(await runJob(job));
                if (workerId) boss.notifyWorker(workerId);
                return results;
              },
            );
          }
          continue;
        }
        // batchSize > 1: with a batch of 1 pg-boss polls no faster than every 0.5 s (notes/database-trial.md).
        await boss.work(
          def.name,
          {
            batchSize: 10,
            localConcurrency: concurrency,
            pollingIntervalSeconds: 0.5,
            burstWhenBatchFull: true,
            perJobResults: true,
          },
          async (batch: Job<unknown>[]) => {
            const results = [];
            for (const job of batch) results.push(await runJob(job));
            return results;
          },
        );
      }
    },
    async stop(timeoutMs = 10_000) {
      if (started) await boss.stop({ graceful: true, timeout: timeoutMs });
      started = false;
    },
  };
}

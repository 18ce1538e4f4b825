import type { AiActionKind } from "@hangar/contract";
import { createSerialWorker, type SerialWorker } from "../../platform/worker-threads.ts";
import { type AssetFacts, type Evaluation, evaluate } from "./ai-evaluate.ts";

/**
 * Where AI actions are evaluated (issue 27): in a worker thread, one asset's actions per call, under a
 * time budget. Patterns are linear-time already (patterns.ts); the thread and the budget bound what
 * is left (a long document's OCR text times a large pattern) and keep it off the event loop, so
 * /healthz and every other workspace's requests answer while a batch runs. An action the budget did
 * not reach, or whose batch had to be stopped, says so in its result: never a crash, never a match.
 */

/** One asset's batch: the actions (of its workspace, or of one field) against its facts. */
export interface EvalRequest {
  actions: Array<{ kind: AiActionKind; config: unknown }>;
  facts: AssetFacts;
  /** Milliseconds for the whole batch, counted from when the thread takes it. */
  budgetMs: number;
}

const outcome = (note: string): Evaluation => ({ matched: false, confidence: 0, evidence: { note } });
export const overBudget = (budgetMs: number) =>
  outcome(`Not evaluated: the evaluation took longer than its ${budgetMs} ms budget`);

/** Evaluates in order, checking the budget before each action; an action that throws says why. */
export function evaluateBatch({ actions, facts, budgetMs }: EvalRequest): Evaluation[] {
  const deadline = performance.now() + budgetMs;
  return actions.map(({ kind, config }) => {
    if (performance.now() >= deadline) return overBudget(budgetMs);
    try {
      return evaluate(kind, config, facts);
    } catch (err) {
      return outcome(`Could not evaluate: ${(err as Error).message}`);
    }
  });
}

export interface Evaluator {
  /** One result per action, in order. Never rejects: a stopped or failed batch answers notes. */
  evaluate(actions: EvalRequest["actions"], facts: AssetFacts): Promise<Evaluation[]>;
  close(): Promise<void>;
}

export const EVAL_BUDGET_MS = 5_000;

/**
 * The evaluation thread, started on first use and let go after five idle minutes. The budget is checked
 * between actions in the thread; should one action overrun it (it would take a pattern near the
 * program bound on a very long text), the thread is terminated at twice the budget and restarted.
 */
export function createEvaluator(opts: { budgetMs?: number } = {}): Evaluator {
  const budgetMs = opts.budgetMs ?? EVAL_BUDGET_MS;
  const worker: SerialWorker = createSerialWorker({
    file: new URL("./ai-eval-worker.ts", import.meta.url),
    name: "ai-actions",
    idleMs: 5 * 60_000,
    maxOldGenerationSizeMb: 256,
    init: { message: { ready: true }, timeoutMs: 120_000, reason: "The AI actions could not start" },
  });
  return {
    async evaluate(actions, facts) {
      if (actions.length === 0) return [];
      try {
        return await worker.call<Evaluation[]>({ actions, facts, budgetMs } satisfies EvalRequest, {
          timeoutMs: Math.max(2 * budgetMs, budgetMs + 1_000),
          reason: "Evaluation stopped",
        });
      } catch (err) {
        const text = (err as Error).message;
        const stopped = text.startsWith("Evaluation stopped: ai-actions timed out");
        return actions.map(() => (stopped ? overBudget(budgetMs) : outcome(`Could not evaluate: ${text}`)));
      }
    },
    close: () => worker.close(),
  };
}

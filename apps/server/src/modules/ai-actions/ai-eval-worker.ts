import { serveWorker } from "../../platform/worker-threads.ts";
import { type EvalRequest, evaluateBatch } from "./ai-evaluator.ts";

/**
 * The thread AI actions are evaluated in (started by ai-evaluator.ts), so that no pattern, however
 * large the OCR text it reads, holds the server's event loop. The first message only proves the
 * thread is up (loading the modules is not part of any asset's budget).
 */
serveWorker(async (message: EvalRequest | { ready: true }) => ({
  result: "ready" in message ? "ready" : evaluateBatch(message),
}));

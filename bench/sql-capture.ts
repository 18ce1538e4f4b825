// Records the SQL statements a request runs (every pg client query of this process while capturing) and
// replays them raw: the honest "raw" beside an endpoint is the very statements it ran, with the same
// ordering, so the ratio measures the endpoint's own overhead (HTTP, validation, serialisation).
import pg from "pg";
import { stats } from "./lib.ts";

export interface Captured {
  text: string;
  values: unknown[];
  start: number;
  end: number;
}

let sink: Captured[] | null = null;
const original = pg.Client.prototype.query;
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() is heavily overloaded; we only observe it
  (pg.Client.prototype as any).query = function (this: pg.Client, ...args: any[]) {
    const [config, values] = args;
    const rec = sink;
    if (!rec || typeof args[args.length - 1] === "function") return original.apply(this, args as never);
    const text = typeof config === "string" ? config : (config?.text as string);
    const vals = (Array.isArray(values) ? values : (config?.values ?? [])) as unknown[];
    const entry: Captured = { text, values: vals, start: performance.now(), end: Number.POSITIVE_INFINITY };
    rec.push(entry);
    const out = original.apply(this, args as never) as unknown as Promise<unknown>;
    return out.finally(() => {
      entry.end = performance.now();
    });
  };
}

/** The statements `fn` runs, in the order they were issued, with their start and end times. */
export async function capture(fn: () => Promise<unknown>): Promise<Captured[]> {
  install();
  const rec: Captured[] = [];
  sink = rec;
  try {
    await fn();
  } finally {
    sink = null;
  }
  return rec;
}

/**
 * Runs the captured statements on `pool` with the request's own ordering: each statement starts once
 * every statement that had finished before it started (in the capture) has finished again, so what
 * ran in parallel runs in parallel and what waited waits.
 */
export function replay(pool: pg.Pool, statements: Captured[]): Promise<unknown> {
  const done: Array<Promise<unknown>> = [];
  for (const s of statements) {
    const before = statements.map((p, i) => (p.end <= s.start ? done[i] : null)).filter((p) => p !== null);
    done.push(Promise.all(before).then(() => pool.query(s.text, s.values)));
  }
  return Promise.all(done);
}

/**
 * The endpoint beside its own statements: warms both, captures what one call runs, then times `runs`
 * calls and raw replays interleaved (machine noise falls on both alike). Answers both samples' stats
 * and the statements.
 */
export async function compareToRaw(
  pool: pg.Pool,
  call: () => Promise<unknown>,
  runs: number,
  /** Untimed, before each call (and not captured): what the client asked just before. */
  before?: () => Promise<unknown>,
) {
  for (let i = 0; i < 5; i++) {
    await before?.();
    await call();
  }
  await before?.();
  const statements = await capture(call);
  for (let i = 0; i < 5; i++) await replay(pool, statements);
  const endpoint: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < runs; i++) {
    await before?.();
    let t = performance.now();
    await call();
    endpoint.push(performance.now() - t);
    t = performance.now();
    await replay(pool, statements);
    raw.push(performance.now() - t);
  }
  return { endpoint: stats(endpoint), raw: stats(raw), statements };
}

import client from "prom-client";

/**
 * Prometheus metrics of one process (prom-client). Each runtime owns its registry, so tests can run
 * several servers in one process without mixing their figures. Labels are bounded: routes are the
 * route patterns (never raw URLs), queues are our queue names, failure reasons are the short fixed
 * texts of `MediaError` without the tool's detail (cut to 80 characters).
 */
export interface Metrics {
  registry: client.Registry;
  observeHttp(method: string, route: string, status: number, seconds: number): void;
  observeJob(queue: string, status: "completed" | "failed", seconds: number): void;
  pipelineFailure(reason: string): void;
  /** Called on every scrape: fills gauges read from elsewhere (queue depth from the job engine). */
  onCollect(fill: () => Promise<void>): void;
  setQueueDepth(queue: string, state: "ready" | "active" | "deferred" | "failed", count: number): void;
  render(): Promise<string>;
}

export function createMetrics(): Metrics {
  const registry = new client.Registry();
  // Process figures: CPU, RSS, heap, event-loop lag (nodejs_eventloop_lag_*), handles.
  // Lag gauges are timer delays sampled every 10 ms: an idle loop reads ≈ 0.010 s (lag = value − 0.010).
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });

  const http = new client.Histogram({
    name: "hangar_http_request_duration_seconds",
    help: "HTTP request latency by route pattern, method and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const jobs = new client.Histogram({
    name: "hangar_job_duration_seconds",
    help: "Job run time by queue and outcome",
    labelNames: ["queue", "status"] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers: [registry],
  });
  const failures = new client.Counter({
    name: "hangar_pipeline_failures_total",
    help: "Assets that ended in error, by reason",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  const fills: Array<() => Promise<void>> = [];
  const depth = new client.Gauge({
    name: "hangar_queue_jobs",
    help: "Jobs per queue and state (from the job engine's counters, refreshed every ~10 s)",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      await Promise.all(fills.map((f) => f().catch(() => {})));
    },
  });

  return {
    registry,
    observeHttp: (method, route, status, seconds) => http.observe({ method, route, status: String(status) }, seconds),
    observeJob: (queue, status, seconds) => jobs.observe({ queue, status }, seconds),
    // "The image is corrupt or truncated (VipsJpeg: …)" counts as "The image is corrupt or truncated".
    pipelineFailure: (reason) => failures.inc({ reason: (reason.split(/ \(|: /)[0] ?? reason).slice(0, 80) }),
    onCollect: (fill) => {
      fills.push(fill);
    },
    setQueueDepth: (queue, state, count) => depth.set({ queue, state }, count),
    render: () => registry.metrics(),
  };
}

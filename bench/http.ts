// bench/http: the authenticated asset GET (session cookie → session → membership → asset with its
// tags, boards and signed URLs) beside a bare Fastify route answering a constant, in the same run and
// process, both driven by autocannon over loopback. Goal: Hangar ≥ 0.25× the bare route's requests/s.
// A third run shows the same GET with the read cache off (every read from PostgreSQL), for scale.
// Run: npx tsx bench/http.ts   (DURATION=10 seconds per side, CONNECTIONS=50; BENCH_DATABASE_URL optional)
import autocannon from "autocannon";
import Fastify from "fastify";
import sharp from "sharp";
import { benchLogin, benchServer } from "./lib.ts";

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);

async function drive(url: string, headers: Record<string, string> = {}) {
  // A short warm-up, then the measured run.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 });
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r["2xx"],
    bad: r.non2xx + r.errors + r.timeouts,
  };
}

const srv = await benchServer({ work: true, env: { AI_TAGS: "0" } });
const bare = Fastify();
bare.get("/hello", async () => ({ hello: "world" }));
await bare.listen({ host: "127.0.0.1", port: 0 });
const barePort = (bare.server.address() as { port: number }).port;

let hangar: Awaited<ReturnType<typeof drive>>;
let plain: Awaited<ReturnType<typeof drive>>;
let uncached: Awaited<ReturnType<typeof drive>>;
try {
  const { workspaceId, headers } = await benchLogin(srv);
  const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3366aa" } })
    .png()
    .toBuffer();
  const init = (await (
    await fetch(`${srv.base}/api/v1/workspaces/${workspaceId}/assets/upload`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "bench.png", size: png.length }),
    })
  ).json()) as { asset_id: string; direct_url: string };
  await fetch(`${srv.base}${init.direct_url}`, { method: "PUT", body: new Uint8Array(png) });
  const assetUrl = `${srv.base}/api/v1/workspaces/${workspaceId}/assets/${init.asset_id}`;
  for (let i = 0; ; i++) {
    const a = (await (await fetch(assetUrl, { headers })).json()) as { status: string };
    if (a.status === "COMPLETED") break;
    if (i > 300) throw new Error(`asset stuck in ${a.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  plain = await drive(`http://127.0.0.1:${barePort}/hello`);
  hangar = await drive(assetUrl, { cookie: headers.cookie });
  // Not listening, the cache answers nothing (as with READ_CACHE=false): every read hits the database.
  await srv.rt.stopListening();
  uncached = await drive(assetUrl, { cookie: headers.cookie });
} finally {
  await bare.close();
  await srv.close();
}

const row = (name: string, r: typeof hangar) =>
  `  ${name.padEnd(40)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(4)} ms   2xx ${r.ok}   other ${r.bad}`;
console.log(`bench/http: ${CONNECTIONS} connections, ${DURATION} s each, ${srv.label}`);
console.log(row("GET asset (read cache on: the default)", hangar));
console.log(row("bare Fastify GET /hello", plain));
console.log(row("GET asset, read cache off (for scale)", uncached));
console.log(`  ratio ${(hangar.rps / plain.rps).toFixed(2)}× of the bare route (goal ≥ 0.25×)`);
if (hangar.bad > 0) console.log("  (non-2xx answers from Hangar: the figure is not valid)");

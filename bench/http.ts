// bench/http: the authenticated asset GET (session cookie → session → membership → asset with its
// tags, boards and signed URLs) beside a bare Fastify route answering a constant, in the same run and
// process, both driven by autocannon over loopback. Goal: Hangar ≥ 0.25× the bare route's requests/s.
// A third run shows the same GET with the read cache off (every read from PostgreSQL), for scale.
// Then the share check (issue 17): the same thumbnail fetched by the member's session and by a share
// link's signed URL (each fetch re-checks the link: active, unexpired, password version, in the board).
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
let memberMedia: Awaited<ReturnType<typeof drive>>;
let linkMedia: Awaited<ReturnType<typeof drive>>;
try {
  const { workspaceId, headers } = await benchLogin(srv);
  const board = (await (
    await fetch(`${srv.base}/api/v1/workspaces/${workspaceId}/boards`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Shared" }),
    })
  ).json()) as { id: string };
  const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3366aa" } })
    .png()
    .toBuffer();
  const init = (await (
    await fetch(`${srv.base}/api/v1/workspaces/${workspaceId}/assets/upload`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "bench.png", size: png.length, board_id: board.id }),
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
  // The board's share link, and the thumbnail as a visitor of it receives it.
  const link = (await (
    await fetch(`${srv.base}/api/v1/workspaces/${workspaceId}/share/board/${board.id}`, { headers })
  ).json()) as { token: string };
  const shared = (await (await fetch(`${srv.base}/api/v1/share/${link.token}/assets/${init.asset_id}`)).json()) as {
    thumbnail_url: string;
  };
  const member = (await (await fetch(assetUrl, { headers })).json()) as { thumbnail_url: string };
  memberMedia = await drive(`${srv.base}${member.thumbnail_url}`, { cookie: headers.cookie });
  linkMedia = await drive(`${srv.base}${shared.thumbnail_url}`);
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
console.log(row("thumbnail by the member's session", memberMedia));
console.log(row("thumbnail by a share link's signed URL", linkMedia));
console.log(
  `  share check: ${(linkMedia.rps / memberMedia.rps).toFixed(2)}× the member's requests/s, ` +
    `+${(1000 / linkMedia.rps - 1000 / memberMedia.rps).toFixed(3)} ms of one core per request`,
);
if (hangar.bad + memberMedia.bad + linkMedia.bad > 0)
  console.log("  (non-2xx answers from Hangar: the figure is not valid)");

// bench/flood: how long /healthz waits while hostile bodies arrive (issue 12's probe: 2 MB of nested
// JSON, to a public route and to a member's route), beside /healthz on the same server at rest, in the
// same run. The API suite only checks the outcome (refused unparsed, probes answered); the latency is here.
// Goal: p90 during the flood within 2× the idle p90, no probe over 250 ms.
// Run: npx tsx bench/flood.ts   (ROUNDS=5 floods of 10 bodies; PROBES=200 idle probes)
import { benchLogin, benchServer, ms, stats } from "./lib.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const PROBES = Number(process.env.PROBES ?? 200);

const srv = await benchServer({ env: { AI_TAGS: "0", OCR: "0" } });
const { workspaceId, headers: member } = await benchLogin(srv);

async function probe(): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${srv.base}/healthz`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
  return performance.now() - t0;
}

const idle: number[] = [];
for (let i = 0; i < PROBES; i++) idle.push(await probe());

// An anonymous visitor's CSRF token (login needs one), as a browser holds it.
const csrf = await fetch(`${srv.base}/api/v1/users/set-csrf-token`);
const token = ((await csrf.json()) as { data: { csrftoken: string } }).data.csrftoken;
const visitor = {
  cookie: csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; "),
  "x-csrftoken": token,
};

const deep = "[".repeat(1_000_000) + "]".repeat(1_000_000);
const during: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const post = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${srv.base}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: deep,
    }).then((r) => r.arrayBuffer().then(() => r.status));
  let done = false;
  const flood = Promise.all([
    ...Array.from({ length: 5 }, () => post("/users/login", visitor)),
    ...Array.from({ length: 5 }, () => post(`/workspaces/${workspaceId}/assets`, member)),
  ]).finally(() => {
    done = true;
  });
  while (!done) during.push(await probe());
  const statuses = await flood;
  if (statuses.some((s) => s !== 400 && s !== 413)) throw new Error(`unexpected answers: ${statuses.join(", ")}`);
}

const p90 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length * 0.9)]!;
const line = (label: string, xs: number[]) => {
  const s = stats(xs);
  return `${label} p50 ${ms(s.median)}  p90 ${ms(p90(xs))}  max ${ms(Math.max(...xs))}  (${xs.length} probes)`;
};
console.log(line("/healthz at rest:      ", idle));
console.log(line("/healthz during flood: ", during));
console.log(`ratio (flood/rest p90): ${(p90(during) / p90(idle)).toFixed(2)}×`);
await srv.close();

// bench/watermarks (issue 33): what watermarks cost a share link's visitors.
// 1. A cached watermarked thumbnail beside the same thumbnail unwatermarked, each by the link's signed
//    URL, driven by autocannon over loopback. Goal: ≥ 0.8× the plain one's requests/s.
// 2. The first watermarked renditions of a 12 MP JPEG (its 1024 px preview, and the stamped 12 MP
//    original) and of a 30 s 1080p clip (burned into its web copy by the job) beside the plain ones:
//    the pipeline's own processing of the same file (upload complete → COMPLETED).
// Run: npx tsx bench/watermarks.ts   (DURATION=10 seconds per side, CONNECTIONS=50; SKIP_VIDEO=1 leaves the
// clip out; BENCH_DATABASE_URL optional)
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import sharp from "sharp";
import { benchLogin, benchServer, run } from "./lib.ts";

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);

async function drive(url: string) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ok: r["2xx"], bad: r.non2xx + r.errors };
}

const srv = await benchServer({ work: true, env: { AI_TAGS: "0" } });
const tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-wm-"));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
try {
  const { workspaceId: ws, headers } = await benchLogin(srv);
  const api = (p: string, init: RequestInit = {}) =>
    fetch(`${srv.base}/api/v1${p}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
  const board = (await (
    await api(`/workspaces/${ws}/boards`, { method: "POST", body: JSON.stringify({ name: "Kit" }) })
  ).json()) as {
    id: string;
  };

  /** Uploads into the board (direct or multipart) and answers the asset id and when the upload completed. */
  async function upload(name: string, data: Buffer) {
    const init = (await (
      await api(`/workspaces/${ws}/assets/upload`, {
        method: "POST",
        body: JSON.stringify({ name, size: data.length, board_id: board.id }),
      })
    ).json()) as {
      asset_id: string;
      upload_id: string;
      key: string;
      direct_url?: string;
      parts?: Array<{ url: string; start_byte: number; end_byte: number; part_number: number }>;
    };
    if (init.direct_url) await fetch(`${srv.base}${init.direct_url}`, { method: "PUT", body: new Uint8Array(data) });
    else {
      const parts = [];
      for (const p of init.parts ?? []) {
        const body = new Uint8Array(data.subarray(p.start_byte, p.end_byte + 1));
        const r = await fetch(`${srv.base}${p.url}`, { method: "PUT", body });
        parts.push({ part_number: p.part_number, etag: r.headers.get("etag") });
      }
      await api(`/workspaces/${ws}/assets/upload/complete`, {
        method: "POST",
        body: JSON.stringify({ upload_id: init.upload_id, key: init.key, parts }),
      });
    }
    return { id: init.asset_id, at: performance.now() };
  }
  async function processed(id: string, since: number) {
    for (;;) {
      const a = (await (await api(`/workspaces/${ws}/assets/${id}`)).json()) as { status: string };
      if (a.status === "COMPLETED") return performance.now() - since;
      if (a.status === "error") throw new Error(`${id} failed`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const thumb = await upload(
    "bench.png",
    await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3366aa" } })
      .png()
      .toBuffer(),
  );
  await processed(thumb.id, thumb.at);
  // 12 MP: a photo-like gradient with shapes (4000 × 3000).
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="3000"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3a6ea5"/><stop offset="1" stop-color="#d9a441"/></linearGradient></defs><rect width="4000" height="3000" fill="url(#g)"/><circle cx="1400" cy="1300" r="600" fill="#fff" fill-opacity="0.6"/></svg>`;
  const photo = await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
  const big = await upload("photo-12mp.jpg", photo);
  const photoPlain = await processed(big.id, big.at);
  const withVideo = !process.env.SKIP_VIDEO;
  const clipFile = path.join(tmp, "clip.mp4");
  const { ffmpegPath } = await import("../apps/server/src/media/video.ts");
  if (withVideo)
    await run(await ffmpegPath(), [
      ...["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=30"],
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=30", "-shortest"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-y", clipFile],
    ]);
  const clip = withVideo ? await upload("clip-1080p-30s.mp4", await readFile(clipFile)) : null;
  const clipPlain = clip ? await processed(clip.id, clip.at) : 0;

  const link = (await (await api(`/workspaces/${ws}/share/board/${board.id}`)).json()) as { token: string };
  const shared = async (id: string) =>
    (await (await fetch(`${srv.base}/api/v1/share/${link.token}/assets/${id}`)).json()) as {
      thumbnail_url: string;
      url: string | null;
    };
  const plainThumb = await drive(`${srv.base}${(await shared(thumb.id)).thumbnail_url}`);

  const mark = { kind: "text", text: "CONFIDENTIAL {visitor} {date}", position: "tiled", opacity: 0.5, size: 30 };
  await api(`/workspaces/${ws}/share/board/${board.id}`, {
    method: "PUT",
    body: JSON.stringify({ allow_downloads: true, watermark: { ...mark, apply_to_downloads: true } }),
  });
  const markedUrl = `${srv.base}${(await shared(thumb.id)).thumbnail_url}`;
  if ((await fetch(markedUrl)).status !== 200) throw new Error("watermarked thumbnail refused");
  const markedThumb = await drive(markedUrl);

  // First watermarked renditions: nothing cached yet for this asset.
  const photoShared = await shared(big.id);
  let t = performance.now();
  await (await fetch(`${srv.base}${photoShared.thumbnail_url}`)).arrayBuffer();
  const photoMarked = performance.now() - t;
  t = performance.now();
  const stamped = await fetch(`${srv.base}${photoShared.url}`);
  await stamped.arrayBuffer();
  const originalMarked = performance.now() - t;
  t = performance.now();
  for (; clip; ) {
    const r = (await (
      await fetch(`${srv.base}/api/v1/share/${link.token}/assets/${clip!.id}/watermarked-video`)
    ).json()) as { state: string };
    if (r.state === "ready") break;
    if (r.state === "failed") throw new Error("watermarked video failed");
    await new Promise((ok) => setTimeout(ok, 200));
  }
  const clipMarked = performance.now() - t;

  const row = (name: string, r: Awaited<ReturnType<typeof drive>>) =>
    `  ${name.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(4)} ms   2xx ${r.ok}   other ${r.bad}`;
  console.log(`bench/watermarks: ${CONNECTIONS} connections, ${DURATION} s each, ${srv.label}`);
  console.log(row("thumbnail by the link, unwatermarked", plainThumb));
  console.log(row("thumbnail by the link, watermarked (cached)", markedThumb));
  console.log(`  ratio ${(markedThumb.rps / plainThumb.rps).toFixed(2)}× (goal ≥ 0.8×)`);
  console.log(`  12 MP JPEG: plain processing (all renditions) ${seconds(photoPlain)}`);
  console.log(`              first watermarked preview (1024 px) ${seconds(photoMarked)}`);
  console.log(`              first stamped 12 MP original ${seconds(originalMarked)} (${stamped.status})`);
  if (clip) {
    console.log(`  30 s 1080p clip: plain processing (web.mp4, poster, sprite) ${seconds(clipPlain)}`);
    console.log(`                   first watermarked web copy (job, asked → ready) ${seconds(clipMarked)}`);
  }
  if (plainThumb.bad + markedThumb.bad > 0) console.log("  (non-2xx answers: the figure is not valid)");
} finally {
  await srv.close();
  await rm(tmp, { recursive: true, force: true });
}

// bench/documents: a 200-page PDF and 50 office files (25 .docx, 25 .xlsx, made by LibreOffice from
// generated HTML and CSV) through upload → COMPLETED (every page to pages/N.jpg at 1600 px long side,
// the thumbnail), page images per second beside `pdftoppm -jpeg -jpegopt quality=85 -scale-to 1600` (the
// pipeline's JPEG settings: quality 85, libjpeg's defaults otherwise) on the same PDF and,
// for the office files, beside `soffice --convert-to pdf` (a fresh profile per file, as the pipeline
// does) followed by pdftoppm, with the same parallelism (2). Memory: peak RSS of the server and its
// children while a 50-page and then the 200-page PDF is processed (goal: flat in the page count).
// The 200-page PDF and the pdftoppm reference each run twice and the faster run counts (the machine
// is shared); CPU time a page is printed too, as it hardly depends on what else runs.
// Goal: ≥ 0.8× pdftoppm's pages per second.
// Run: npx tsx bench/documents.ts   (apt-get install -y poppler-utils libreoffice-writer libreoffice-calc;
// PAGES=200, OFFICE=50)
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { textPdf } from "../apps/server/src/ops/demo-content.ts";
import { benchLogin, benchServer, benchUpload, has, pool, run, treeRss, waitProcessed } from "./lib.ts";

const PAGES = Number(process.env.PAGES ?? 200);
const OFFICE = Number(process.env.OFFICE ?? 50);
const PARALLEL = 2;
if (!has("pdftoppm") || !has("soffice")) {
  console.log(
    "bench/documents needs pdftoppm and soffice: apt-get install -y poppler-utils libreoffice-writer libreoffice-calc",
  );
  process.exit(1);
}

const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-docs-"));
const lorem = "Hangar keeps every asset of the campaign in one place, reviewed, tagged and shared with care.";
const pdfOf = (n: number) =>
  textPdf(
    Array.from({ length: n }, (_, i) => ({
      title: `Chapter ${i + 1}`,
      lines: Array.from({ length: 24 }, (_, l) => `${l + 1}. ${lorem}`),
      rgb: [((i * 37) % 100) / 100, 0.3, 0.6] as [number, number, number],
    })),
  );
const small = path.join(dir, "guide-50.pdf");
const big = path.join(dir, `guide-${PAGES}.pdf`);
await writeFile(small, pdfOf(50));
await writeFile(big, pdfOf(PAGES));

console.log(`generating ${OFFICE} office files in ${dir} …`);
const src = path.join(dir, "src");
await mkdir(src);
for (let i = 0; i < OFFICE; i++) {
  if (i % 2 === 0) {
    const paras = Array.from({ length: 40 }, (_, p) => `<p>${p + 1}. ${lorem}</p>`).join("");
    const table = `<table border="1">${Array.from({ length: 20 }, (_, r) => `<tr><td>Row ${r}</td><td>${r * i}</td><td>${lorem.slice(0, 30)}</td></tr>`).join("")}</table>`;
    await writeFile(path.join(src, `brief-${i}.html`), `<html><body><h1>Brief ${i}</h1>${paras}${table}</body></html>`);
  } else {
    const rows = Array.from(
      { length: 300 },
      (_, r) => `${r},item ${r},${(r * 3.7 + i).toFixed(2)},${r % 7 === 0 ? "yes" : "no"}`,
    );
    await writeFile(path.join(src, `budget-${i}.csv`), `id,name,amount,approved\n${rows.join("\n")}\n`);
  }
}
const officeDir = path.join(dir, "office");
const profile = (name: string) => pathToFileURL(path.join(os.tmpdir(), `hangar-bench-lo-${name}-${process.pid}`)).href;
const lo = (name: string, args: string[]) =>
  run("soffice", [`-env:UserInstallation=${profile(name)}`, "--headless", "--norestore", "--nolockcheck", ...args]);
const srcFiles = await readdir(src);
// HTML opens in Writer/Web, which cannot write .docx: read it with Writer's HTML filter.
await lo("gen", [
  "--infilter=HTML (StarWriter)",
  "--convert-to",
  "docx",
  "--outdir",
  officeDir,
  ...srcFiles.filter((f) => f.endsWith(".html")).map((f) => path.join(src, f)),
]);
await lo("gen2", [
  "--infilter=CSV:44,34,76,1",
  "--convert-to",
  "xlsx",
  "--outdir",
  officeDir,
  ...srcFiles.filter((f) => f.endsWith(".csv")).map((f) => path.join(src, f)),
]);
const office = (await readdir(officeDir)).map((f) => path.join(officeDir, f));

// Tags and OCR off: they are extras pdftoppm does not do (OCR reads the first 10 pages, a cost per
// document and not per page image: 200 pages took 33 s with it against 6 s without). OCR=1 keeps it.
const srv = await benchServer({
  work: true,
  env: { AI_TAGS: "0", OCR: process.env.OCR ?? "0", WORKER_CONCURRENCY: String(PARALLEL) },
});
let peak = 0;
const sampler = setInterval(() => {
  void treeRss().then((b) => {
    peak = Math.max(peak, b);
  });
}, 200);
const ours: Record<string, { s: number; pages: number; rss: number; cpu: number }> = {};
/** CPU of this process (the server and its threads) and of its finished children, in ms. */
const cpuMs = async () => {
  const { readFile } = await import("node:fs/promises");
  const f = (await readFile("/proc/self/stat", "utf8")).split(") ")[1]!.split(" ");
  const u = process.cpuUsage();
  // Fields 16 and 17 of /proc/self/stat (cutime, cstime) in clock ticks of 10 ms.
  return (u.user + u.system) / 1000 + (Number(f[13]) + Number(f[14])) * 10;
};
try {
  const { workspaceId, headers } = await benchLogin(srv);
  const phase = async (label: string, files: string[]) => {
    peak = await treeRss();
    const c = await cpuMs();
    const t = performance.now();
    const ids = await benchUpload(srv, workspaceId, headers, files);
    const failed = await waitProcessed(srv, ids);
    const s = (performance.now() - t) / 1000;
    const rows = await srv.rt.db.selectFrom("assets").select("page_count").where("id", "in", ids).execute();
    if (failed) console.log(`  ${label}: ${failed} ended in error`);
    const cpu = (await cpuMs()) - c;
    const pages = rows.reduce((n, r) => n + (r.page_count ?? 0), 0);
    // The best of repeated runs: other work on a shared machine only ever slows a run down.
    const was = ours[label];
    if (!was || pages / s > was.pages / was.s) ours[label] = { s, pages, rss: Math.max(peak, was?.rss ?? 0), cpu };
  };
  await phase("pdf50", [small]);
  await phase("pdf", [big]);
  await phase("pdf", [big]);
  await phase("office", office);
} finally {
  clearInterval(sampler);
  await srv.close();
}

const out = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-docs-cli-"));
const ppm = (pdf: string, prefix: string) =>
  run("pdftoppm", ["-jpeg", "-jpegopt", "quality=85", "-scale-to", "1600", pdf, prefix]);
// pdftoppm is one process per document: run the 200 pages as two halves side by side, as 2 cores allow.
const half = Math.ceil(PAGES / 2);
let pdfCli = Number.POSITIVE_INFINITY;
let pdfCliCpu = 0;
for (let round = 0; round < 2; round++) {
  const c = await cpuMs();
  const secs = await pool(
    [
      [1, half],
      [half + 1, PAGES],
    ],
    PARALLEL,
    async ([from, to], i) => {
      await run("pdftoppm", [
        "-f",
        String(from),
        "-l",
        String(to),
        "-jpeg",
        "-jpegopt",
        "quality=85",
        "-scale-to",
        "1600",
        big,
        path.join(out, `big${i}`),
      ]);
    },
  );
  if (secs < pdfCli) [pdfCli, pdfCliCpu] = [secs, (await cpuMs()) - c];
}
const pdfSerial = await pool([big], 1, async (pdf) => ppm(pdf, path.join(out, "serial")));
let officePages = 0;
const officeCli = await pool(office, PARALLEL, async (file, i) => {
  const o = path.join(out, `office-${i}`);
  await lo(`cli-${i}`, ["--convert-to", "pdf", "--outdir", o, file]);
  const pdf = path.join(o, `${path.basename(file, path.extname(file))}.pdf`);
  await ppm(pdf, path.join(o, "p"));
  officePages += (await readdir(o)).filter((f) => f.endsWith(".jpg")).length;
  await rm(profile(`cli-${i}`).replace("file://", ""), { recursive: true, force: true });
});
await rm(out, { recursive: true, force: true });
await rm(dir, { recursive: true, force: true });
for (const p of ["gen", "gen2"]) await rm(profile(p).replace("file://", ""), { recursive: true, force: true });

const pps = (pages: number, s: number) => pages / s;
const p = ours.pdf!;
const o = ours.office!;
console.log(`bench/documents: a ${PAGES}-page PDF and ${office.length} office files, ${PARALLEL} at a time`);
console.log(
  `  PDF     Hangar ${pps(p.pages, p.s).toFixed(1).padStart(6)} pages/s   pdftoppm ×2 ${pps(PAGES, pdfCli).toFixed(1).padStart(6)} pages/s` +
    ` → ${(pps(p.pages, p.s) / pps(PAGES, pdfCli)).toFixed(2)}× (goal ≥ 0.8×); pdftoppm ×1 ${pps(PAGES, pdfSerial).toFixed(1)} pages/s` +
    ` → ${(pps(p.pages, p.s) / pps(PAGES, pdfSerial)).toFixed(2)}× (best of two runs each)`,
);
console.log(
  `          CPU a page: Hangar ${(p.cpu / p.pages).toFixed(1)} ms, pdftoppm ${(pdfCliCpu / PAGES).toFixed(1)} ms → ${(pdfCliCpu / PAGES / (p.cpu / p.pages)).toFixed(2)}×` +
    " (what the ratio tends to when both have the cores to themselves)",
);
console.log(
  `  office  Hangar ${pps(o.pages, o.s).toFixed(2).padStart(6)} pages/s   soffice + pdftoppm ${pps(officePages, officeCli).toFixed(2).padStart(6)} pages/s` +
    ` → ${(pps(o.pages, o.s) / pps(officePages, officeCli)).toFixed(2)}× (${o.pages} and ${officePages} pages)`,
);
console.log(
  `  peak RSS, server + children: ${(ours.pdf50!.rss / 1024 ** 2).toFixed(0)} MB for 50 pages, ${(p.rss / 1024 ** 2).toFixed(0)} MB for ${PAGES} (goal: flat)`,
);

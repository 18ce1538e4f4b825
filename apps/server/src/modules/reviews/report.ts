import { buffer } from "node:stream/consumers";
import { DECISION_LABELS, type ReviewOutcome, STATUS_LABELS } from "@hangar/contract";
import { stringify } from "csv-stringify/sync";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import { embedReportFonts } from "../../platform/pdf-fonts.ts";
import { type BlobStore, mediaKey } from "../../storage/blob-store.ts";
import type { EventFact } from "./facts-repo.ts";
import { reviewerName } from "./kind.ts";
import { displayName } from "./serialize.ts";
import type { LoadedReview } from "./state.ts";

/** What the record covers: the review's facts, its derived state, its history and its requester. */
export interface ReportInput {
  loaded: LoadedReview;
  outcome: ReviewOutcome;
  events: EventFact[];
  requester: string | null;
  workspaceName: string;
}

const stamp = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
// A spreadsheet opens a cell starting with these as a formula: such cells get a leading quote.
const FORMULA = /^[=+\-@\t\r]/;
const cell = (v: string | number | null) => (typeof v === "string" && FORMULA.test(v) ? `'${v}` : (v ?? ""));

/** One line of the history, as people read it. */
export function historyText(e: EventFact): string {
  const by = e.actor_name ? ` by ${e.actor_name}` : "";
  const assets = e.asset_ids.length ? ` (${e.asset_ids.length} asset${e.asset_ids.length === 1 ? "" : "s"})` : "";
  switch (e.type) {
    case "created":
      return `Created${by}${assets}`;
    case "stage_started":
      return `Stage ${(e.stage ?? 0) + 1} started`;
    case "edited":
      return `Edited${by}${e.detail ? `: ${e.detail}` : ""}`;
    case "reopened":
      return `Reopened${by}${assets}`;
    case "canceled":
      return `Canceled${by}`;
    case "completed":
      return `Done: ${STATUS_LABELS[(e.detail ?? "open") as keyof typeof STATUS_LABELS] ?? e.detail}`;
    case "version":
      return e.detail ?? "A new version became current";
  }
}

function people(input: ReportInput) {
  const names = new Map(input.loaded.reviewers.map((r) => [r.id, r.token ? reviewerName(r) : displayName(r)]));
  return (id: string) => names.get(id) ?? "Reviewer";
}

/** One row per asset, per decision (every one, the replaced ones too) and per event of the history. */
export function reviewCsv(input: ReportInput): Buffer {
  const name = people(input);
  const status = new Map(input.outcome.assets.map((a) => [a.assetId, a.status]));
  const rows: Array<Array<string | number | null>> = [
    ["record", "asset", "asset_id", "version", "stage", "reviewer", "decision", "status", "at", "note"],
  ];
  for (const a of input.loaded.assets) {
    const s = status.get(a.asset_id);
    rows.push([
      "asset",
      a.name,
      a.asset_id,
      a.current_version_number,
      null,
      null,
      null,
      a.live ? STATUS_LABELS[s ?? a.status] : "Deleted",
      null,
      null,
    ]);
  }
  for (const d of input.loaded.decisions)
    rows.push([
      "decision",
      d.asset_name,
      d.asset_id,
      d.version_number,
      d.stage + 1,
      name(d.reviewer_id),
      DECISION_LABELS[d.decision],
      null,
      d.created_at.toISOString(),
      d.note,
    ]);
  for (const e of input.events)
    rows.push([
      "history",
      null,
      null,
      null,
      e.stage === null ? null : e.stage + 1,
      null,
      null,
      null,
      e.created_at.toISOString(),
      historyText(e),
    ]);
  return Buffer.concat([Buffer.from("\uFEFF"), Buffer.from(stringify(rows.map((r) => r.map(cell))))]);
}

const A4 = { w: 595, h: 842 };
const MARGIN = 40;

async function thumbnail(store: BlobStore, directory: string | null): Promise<Buffer | null> {
  if (!directory) return null;
  try {
    return await buffer(await store.read(mediaKey(directory, "thumbnail.jpg")));
  } catch {
    return null;
  }
}

/** The printable record: the review, each asset with its thumbnail, version and decisions, then its history. */
export async function reviewPdf(input: ReportInput, store: BlobStore): Promise<Buffer> {
  const { review } = input.loaded;
  const name = people(input);
  const status = new Map(input.outcome.assets.map((a) => [a.assetId, a.status]));
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Review: ${review.title}`);
  pdf.setProducer("Hangar");
  // The comment report's embedded fonts: what people type prints as typed, what they lack as a box.
  const fonts = await embedReportFonts(pdf);
  const { font, bold } = fonts;
  let page: PDFPage = pdf.addPage([A4.w, A4.h]);
  let y = A4.h - MARGIN;
  const room = (h: number) => {
    if (y - h >= MARGIN) return;
    page = pdf.addPage([A4.w, A4.h]);
    y = A4.h - MARGIN;
  };
  const line = (text: string, opts: { size?: number; f?: PDFFont; indent?: number; grey?: boolean } = {}) => {
    const size = opts.size ?? 10;
    const f = opts.f ?? font;
    const width = A4.w - 2 * MARGIN - (opts.indent ?? 0);
    for (const para of fonts.printable(text).split("\n")) {
      let current = "";
      const flush = () => {
        room(size + 4);
        y -= size + 4;
        page.drawText(current, {
          x: MARGIN + (opts.indent ?? 0),
          y,
          size,
          font: f,
          color: opts.grey ? rgb(0.4, 0.4, 0.4) : rgb(0.1, 0.1, 0.1),
        });
      };
      for (const word of para.split(/\s+/)) {
        const next = current ? `${current} ${word}` : word;
        if (f.widthOfTextAtSize(next, size) <= width || !current) current = next;
        else {
          flush();
          current = word;
        }
      }
      flush();
    }
  };

  line(`Review: ${review.title}`, { size: 18, f: bold });
  const p = input.outcome.progress;
  for (const l of [
    `${input.workspaceName} · requested by ${input.requester ?? "a former member"} · created ${stamp(review.created_at)}`,
    `${review.due_at ? `Due ${stamp(review.due_at)} · ` : ""}State: ${STATUS_LABELS[input.outcome.state]} · ${p.approved} of ${p.total} approved`,
    `Stages: ${input.loaded.stages
      .map(
        (s) =>
          `${s.position + 1} (${s.rule === "all" ? "all must approve" : "any one approves"}: ${input.loaded.reviewers
            .filter((r) => r.stage === s.position && !r.removed_at)
            .map((r) => name(r.id))
            .join(", ")})`,
      )
      .join("; ")}`,
  ])
    line(l, { size: 9, grey: true });
  if (review.message) line(review.message, { size: 10 });

  for (const a of input.loaded.assets) {
    y -= 12;
    room(40);
    line(a.name, { size: 13, f: bold });
    line(
      `Version ${a.current_version_number} · ${a.live ? STATUS_LABELS[status.get(a.asset_id) ?? a.status] : "Deleted"}`,
      { size: 9, grey: true },
    );
    const bytes = await thumbnail(store, a.directory);
    const img = bytes ? await pdf.embedJpg(bytes).catch(() => null) : null;
    if (img) {
      const scale = Math.min(220 / img.width, 160 / img.height, 1);
      const w = img.width * scale;
      const h = img.height * scale;
      room(h + 8);
      page.drawImage(img, { x: MARGIN, y: y - h - 4, width: w, height: h });
      y -= h + 8;
    }
    const decisions = input.loaded.decisions.filter((d) => d.asset_id === a.asset_id);
    if (decisions.length === 0) line("No decisions yet.", { size: 9, grey: true, indent: 12 });
    for (const d of decisions) {
      line(
        `${stamp(d.created_at)} · ${name(d.reviewer_id)} · ${DECISION_LABELS[d.decision]} · version ${d.version_number} · stage ${d.stage + 1}`,
        { size: 9, f: bold, indent: 12 },
      );
      if (d.note) line(d.note, { size: 9, indent: 24 });
    }
  }

  y -= 12;
  line("History", { size: 13, f: bold });
  for (const e of input.events) line(`${stamp(e.created_at)} · ${historyText(e)}`, { size: 9, indent: 12 });
  line(`Exported ${stamp(new Date())}`, { size: 8, grey: true });
  return Buffer.from(await pdf.save());
}

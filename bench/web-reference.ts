// bench/web's reference: the grid's cards as one plain static page (no framework, no script): the same
// number of cards, the same rendition URLs, the same card size, columns and gaps, at the same place on
// the page. bench/web scrolls it with the same driver and measures it the same way, so the grid's frame
// times read beside what the machine takes to scroll those pictures at all (raster, image decode).
import type { Page } from "@playwright/test";
import { sql } from "kysely";
import type { Runtime } from "../apps/server/src/runtime.ts";

export interface GridGeometry {
  left: number;
  top: number;
  width: number;
  columns: number;
  cardWidth: number;
  cardHeight: number;
  rowGap: number;
  columnGap: number;
}

/** Where the grid's cards are on the opened grid page (document coordinates) and how big they are. */
export async function measureGrid(page: Page): Promise<GridGeometry> {
  return await page.evaluate(() => {
    const rows = [...document.querySelectorAll('[data-testid="asset-grid"] [role="row"]')]
      .map((r) => r.getBoundingClientRect())
      .sort((a, b) => a.top - b.top);
    const cards = [...document.querySelectorAll('[role="row"]')[0]!.querySelectorAll('[data-testid="asset-card"]')];
    const a = cards[0]!.getBoundingClientRect();
    const b = cards[1]!.getBoundingClientRect();
    return {
      left: rows[0]!.left + window.scrollX,
      top: rows[0]!.top + window.scrollY,
      width: rows[0]!.width,
      columns: cards.length,
      cardWidth: a.width,
      cardHeight: Math.round(a.height),
      rowGap: Math.round(rows[1]!.top - rows[0]!.bottom),
      columnGap: b.left - a.right,
    };
  });
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Opens the reference page of the workspace's assets (newest first, as the grid lists them) in `page`.
 * REFERENCE=windowed (the default): every card's row is in the page's height, and only the rows near the
 * viewport (three either side, as the grid's overscan) are in the DOM, made from HTML strings by a
 * dozen lines of script on each scroll event. REFERENCE=static: every card in the HTML, no script; the
 * browser's own per-frame work then grows with the number of cards (lazy images' intersections, paint):
 * at 5,000 cards it scrolls slower than the grid, so it is no floor.
 */
export async function openReference(page: Page, db: Runtime["db"], workspaceId: string, g: GridGeometry) {
  const rows = (
    await sql<{ name: string; size: string; width: number | null; height: number | null; url: string | null }>`
      SELECT name, size::text, width, height,
        '/media/' || directory || '/' || coalesce(renditions->>'grid', renditions->>'thumbnail')
          || coalesce('?v=' || (extract(epoch FROM processed_at) * 1000)::bigint, '') AS url
      FROM assets WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL
      ORDER BY date_uploaded DESC, id`.execute(db)
  ).rows;
  const cards = rows.map(
    (r) =>
      `<div class="card" data-testid="asset-card" aria-label="${esc(r.name)}"><div class="thumb">` +
      (r.url ? `<img src="${esc(r.url)}" alt="" loading="lazy" decoding="async">` : "") +
      `</div><div class="caption"><p class="name">${esc(r.name)}</p><p class="meta">JPG · ${(Number(r.size) / 1000).toFixed(1)} KB` +
      `${r.width && r.height ? ` · ${r.width}×${r.height}` : ""}</p></div></div>`,
  );
  const windowed = process.env.REFERENCE !== "static";
  const pitch = g.cardHeight + g.rowGap;
  const rowCount = Math.ceil(cards.length / g.columns);
  const columns = `display: grid; grid-template-columns: repeat(${g.columns}, minmax(0, 1fr)); column-gap: ${g.columnGap}px;`;
  const script = `<script>
const cards = ${JSON.stringify(cards).replace(/</g, "\\u003c")};
const grid = document.querySelector(".grid");
const live = new Map();
function update() {
  const top = window.scrollY - ${g.top};
  const first = Math.max(0, Math.floor(top / ${pitch}) - 3);
  const last = Math.min(${rowCount - 1}, Math.floor((top + window.innerHeight) / ${pitch}) + 3);
  for (const [i, row] of live) if (i < first || i > last) { row.remove(); live.delete(i); }
  for (let i = first; i <= last; i++) {
    if (live.has(i)) continue;
    const row = document.createElement("div");
    row.className = "row";
    row.style.transform = "translateY(" + i * ${pitch} + "px)";
    row.innerHTML = cards.slice(i * ${g.columns}, (i + 1) * ${g.columns}).join("");
    grid.append(row);
    live.set(i, row);
  }
}
addEventListener("scroll", update, { passive: true });
update();
</script>`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>bench/web reference</title><style>
body { margin: 0; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
.grid { position: absolute; left: ${g.left}px; top: ${g.top}px; width: ${g.width}px; margin-bottom: 16px;
  ${windowed ? `height: ${rowCount * pitch - g.rowGap}px;` : `${columns} grid-auto-rows: ${g.cardHeight}px; row-gap: ${g.rowGap}px;`} }
.row { position: absolute; top: 0; left: 0; width: 100%; height: ${g.cardHeight}px; ${columns} }
.card { display: flex; flex-direction: column; overflow: hidden; border: 1px solid #dee2e6; border-radius: 8px; background: #fff; }
.thumb { flex: 1 1 auto; min-height: 0; overflow: hidden; background: #f1f3f5; }
.thumb img { display: block; width: 100%; height: 100%; object-fit: cover; }
.caption { flex: none; padding: 6px 10px 8px; min-width: 0; }
.caption p { margin: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.name { font-size: 14px; line-height: 1.55; font-weight: 500; }
.meta { font-size: 12px; line-height: 1.66; color: #868e96; }
</style></head><body><div class="grid">${windowed ? "" : cards.join("")}</div>${windowed ? script : ""}</body></html>`;
  await page.route("**/__bench/reference", (route) => route.fulfill({ contentType: "text/html", body: html }));
  await page.goto("/__bench/reference");
  await page.waitForFunction(() => {
    const img = document.querySelector('[data-testid="asset-card"] img') as HTMLImageElement | null;
    return !!img && img.complete && img.naturalWidth > 0;
  });
}

import type { Page } from "@playwright/test";
import sharp from "sharp";
import { api, baseUrl } from "./support.ts";

/** Shared by the versions flows (versions.spec.ts, versions-share.spec.ts, issue 29). */

/** The poster: round 1, then round 2 with the headline block moved and the sun another colour. */
export async function poster(round: 1 | 2): Promise<Buffer> {
  const sun = round === 1 ? "#ffd43b" : "#ff6b6b";
  const y = round === 1 ? 620 : 560;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1500">
    <rect width="2400" height="1500" fill="#1c7ed6"/>
    <circle cx="1750" cy="420" r="230" fill="${sun}"/>
    <rect x="220" y="${y}" width="1100" height="360" rx="30" fill="#fff" fill-opacity="0.85"/>
    <text x="280" y="${y + 230}" font-size="150" font-family="DejaVu Sans" fill="#1b2a3a">ROUND ${round}</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

/** A new version of an asset through the upload protocol (`version_of`), as the web does; answers its id once processed. */
export async function uploadVersion(page: Page, workspaceId: string, assetId: string, name: string, bytes: Buffer) {
  const init = await api<{ direct_url?: string; version_id: string }>(
    page,
    "POST",
    `/workspaces/${workspaceId}/assets/upload`,
    { name, size: bytes.length, content_type: "image/jpeg", version_of: assetId },
  );
  if (!init.direct_url) throw new Error("expected a direct upload");
  const url = init.direct_url.startsWith("http") ? init.direct_url : `${baseUrl()}${init.direct_url}`;
  const put = await page.request.put(url, { data: bytes, headers: { "Content-Type": "image/jpeg" } });
  if (!put.ok()) throw new Error(`PUT ${name}: ${put.status()}`);
  for (const started = Date.now(); Date.now() - started < 60_000; ) {
    const versions = await api<Array<{ id: string; status: string }>>(
      page,
      "GET",
      `/workspaces/${workspaceId}/assets/${assetId}/versions`,
    );
    if (versions.find((v) => v.id === init.version_id)?.status === "COMPLETED") return init.version_id;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} not processed`);
}

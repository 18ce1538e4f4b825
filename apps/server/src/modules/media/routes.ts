import { nameWithExtension } from "@hangar/contract";
import type { FastifyReply } from "fastify";
import { type Access, allows, type Grant, parseIssuer } from "../../platform/access.ts";
import { contentDisposition } from "../../platform/content-disposition.ts";
import { forbidden, notFound } from "../../platform/errors.ts";
import type { App } from "../../platform/http.ts";
import { parseWatermarkFile } from "../../platform/watermark-path.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import type { Signer } from "../../storage/signer.ts";
import type { AssetsService } from "../assets/index.ts";
import type { Watermarks } from "../watermarks/index.ts";
import { MEDIA } from "./policy.ts";

/** Types a browser may render inline from our origin; anything else (SVG, HTML, unknown) downloads. */
const INLINE_SAFE = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/avif",
  "video/mp4",
  "video/webm",
  "video/quicktime",
  "audio/mpeg",
  "audio/mp4",
  "audio/wav",
  "audio/ogg",
  "application/pdf",
]);
const RENDITION_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  mp4: "video/mp4",
};
const PATH =
  /^([0-9a-f-]{36})\/([0-9a-f-]{36})\/((?:wm\/[0-9a-f]{16}\.[A-Za-z0-9_-]{0,320}\/)?(?:pages\/)?[A-Za-z0-9._-]{1,100})$/;
const PLAIN_REFUSED = "This link shows watermarked pictures only.";

function parseRange(header: string | undefined, size: number): { start: number; end: number } | "invalid" | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return "invalid";
  let start: number;
  let end: number;
  if (m[1] === "") {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? "invalid" : { start, end };
}

/**
 * GET /media/{workspace}/{version}/{file}: renditions and the original. Allowed with a valid signature
 * for this exact path whose issuer still passes the access check (handed-out URLs), or to a caller
 * the access layer lets see the asset; anyone else gets 404. Range requests are honoured (video seeking, ranged downloads).
 */
export function mediaRoutes(
  app: App,
  deps: {
    access: Access;
    assets: AssetsService;
    store: BlobStore;
    signer: Signer;
    /** A share link's original was fetched (its activity counts downloads). */
    onLinkDownload?: (linkId: string) => void;
    /** A watermarking link's visitors get only watermarked copies (issue 33). */
    watermarks: Pick<Watermarks, "rendition">;
  },
) {
  app.get("/media/*", { config: { access: "public" } }, async (req, reply: FastifyReply) => {
    const rest = (req.params as { "*": string })["*"];
    const m = PATH.exec(rest);
    if (!m) throw notFound();
    const [, workspaceId, directoryId, asked] = m as unknown as [string, string, string, string];
    // `wm/{tag}/{file}`: a watermarked copy (platform/watermark-path.ts), only for a watermarking link's visitor.
    const wm = parseWatermarkFile(asked);
    const file = wm?.file ?? asked;
    const q = req.query as { exp?: string; sig?: string; by?: string };
    // A media directory is a version's (issue 29): `{workspace}/{version}`, an asset's first version
    // having the asset's id. Access is the asset's.
    const owner = await deps.assets.mediaOwner(workspaceId, directoryId);
    if (!owner) throw notFound();
    const assetId = owner.asset_id;
    const resource = { kind: "asset", workspaceId, assetId } as const;
    // The original is the download: a share link hands it out only with allow_downloads, and a URL
    // issued to a link without it is refused here too (no way around the flag).
    const act = file === "original" ? MEDIA.original : MEDIA.rendition;
    const path = `/media/${workspaceId}/${directoryId}/${asked}`;
    const issuer = q.sig === undefined ? null : await deps.signer.verify("GET", path, q.exp, q.sig, q.by ?? "");
    const issuedTo = issuer ? parseIssuer(issuer) : null;
    let signed = false;
    let grant: Grant;
    if (issuedTo) {
      // A URL handed out earlier: whoever it was issued to must still have access now (a removed
      // member, a deleted workspace answer 404), and only a live asset is served by URL.
      grant = await deps.access.requireIssuer(issuedTo, act, resource);
      signed = true;
    } else {
      // A session: members see their workspace's media, Recently deleted's thumbnails included.
      grant = await deps.access.require(req.actor, act, resource);
    }
    // Another version than the current one: a link's visitors only when it shows versions (issue 29).
    if (!owner.is_current && !allows(grant, MEDIA.otherVersion)) throw notFound();
    // A whole fetch counts once; a player's or a download manager's ranged parts do not.
    if (issuedTo?.kind === "link" && file === "original" && !req.headers.range) deps.onLinkDownload?.(issuedTo.linkId);
    const asset = owner;
    if (asset.status === "uploading") throw notFound();
    if (signed && asset.deleted) throw notFound();
    const marking = grant.kind === "visitor" ? grant.visitor.watermark : undefined;
    let key = `media/${workspaceId}/${directoryId}/${file}`;
    let markedType: string | null = null;
    if (marking) {
      // Never a plain picture to a watermarking link's visitor, whatever the URL: only an original the
      // link does not stamp (downloads as the link allows) passes unmarked.
      if (!wm && !(file === "original" && !marking.downloads)) throw forbidden(PLAIN_REFUSED);
      if (wm) {
        if (wm.hash !== marking.hash) throw notFound();
        const served = await deps.watermarks.rendition({
          linkId: grant.kind === "visitor" ? grant.visitor.linkId : "",
          hash: wm.hash,
          settings: marking.settings,
          visitor: wm.visitor,
          directory: `${workspaceId}/${directoryId}`,
          file,
          mime: asset.mime_type,
        });
        if ("bytes" in served) {
          reply.header("Content-Type", served.type).header("X-Content-Type-Options", "nosniff");
          return reply.header("Cache-Control", "private, no-store").send(served.bytes);
        }
        key = served.key;
        markedType = served.type;
      }
    } else if (wm) throw notFound();
    const stat = await deps.store.stat(key);
    if (!stat) throw notFound();

    const isOriginal = file === "original";
    const type =
      markedType ??
      (isOriginal ? asset.mime_type : (RENDITION_TYPES[file.split(".").pop() ?? ""] ?? "application/octet-stream"));
    // An original is rendered inline only once the pipeline has sniffed it and found it good: until
    // then (processing) its type is only what the uploader declared, and a refused file (error) is
    // not what it claims to be. Both download, typed as bytes.
    const vetted = !isOriginal || asset.status === "COMPLETED";
    const inline = vetted && INLINE_SAFE.has(type);
    reply.header("Content-Type", inline || (isOriginal && vetted) ? type : "application/octet-stream");
    reply.header("X-Content-Type-Options", "nosniff");
    reply.header("Accept-Ranges", "bytes");
    reply.header("ETag", `"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`);
    reply.header("Last-Modified", stat.mtime.toUTCString());
    // Renditions are immutable under a versioned URL; the original may be replaced by a re-upload.
    // A watermarked copy may be made anew (a new day for `{date}`): an hour, never immutable.
    reply.header("Cache-Control", isOriginal || wm ? "private, max-age=3600" : "private, max-age=31536000, immutable");
    if (isOriginal) {
      const name = nameWithExtension(asset.name, asset.file_extension);
      reply.header("Content-Disposition", contentDisposition(inline ? "inline" : "attachment", name));
    }
    if (!inline) reply.header("Content-Security-Policy", "sandbox; default-src 'none'");

    const range = parseRange(req.headers.range, stat.size);
    if (range === "invalid") {
      return reply.status(416).header("Content-Range", `bytes */${stat.size}`).send();
    }
    if (range) {
      reply.status(206).header("Content-Range", `bytes ${range.start}-${range.end}/${stat.size}`);
      reply.header("Content-Length", String(range.end - range.start + 1));
      return reply.send(await deps.store.read(key, range));
    }
    reply.header("Content-Length", String(stat.size));
    return reply.send(await deps.store.read(key));
  });
}

import { z } from "zod";

/**
 * Watermarks on what a share link's visitors see (issue 33; docs/architecture.md "Watermarks"): a text
 * (placeholders filled per visitor and day) or the workspace's logo, placed at one of nine positions
 * or tiled, at an opacity and a size (the mark's width as a share of the picture's). A setting of the
 * share link, so every kind of link built on share links (portals) inherits it. Members never see it.
 */
export const WATERMARK_POSITIONS = [
  "top-left",
  "top",
  "top-right",
  "left",
  "center",
  "right",
  "bottom-left",
  "bottom",
  "bottom-right",
  "tiled",
] as const;
export const WatermarkPosition = z.enum(WATERMARK_POSITIONS);
export type WatermarkPosition = z.infer<typeof WatermarkPosition>;
/** Text only for now; the workspace logo is the next kind (the settings already carry `kind`). */
export const WATERMARK_KINDS = ["text"] as const;
export const WATERMARK_TEXT_MAX = 120;
/** What a text may name: the visitor (the name or e-mail they gave), the link's title, today's date. */
export const WATERMARK_PLACEHOLDERS = ["{visitor}", "{link}", "{date}"] as const;
export const WATERMARK_TEXT_REQUIRED = "A text watermark needs a text";
/** The visitor's name or e-mail as the browser sends it (URI-encoded) for `{visitor}`. */
export const SHARE_VISITOR_HEADER = "x-share-visitor";
export const WATERMARK_VISITOR_MAX = 60;
/** `{visitor}` for a visitor who gave no name. */
export const WATERMARK_ANONYMOUS = "Guest";

export const Watermark = z
  .object({
    kind: z.enum(WATERMARK_KINDS).default("text"),
    text: z.string().trim().max(WATERMARK_TEXT_MAX).default(""),
    position: WatermarkPosition.default("bottom-right"),
    opacity: z.number().min(0.1).max(1).default(0.5),
    /** The mark's width as a percentage of the picture's width (tiled: of each tile). */
    size: z.number().int().min(5).max(80).default(30),
    /** Also stamp downloaded images and PDFs (when the link allows downloads); other files download as they are. */
    apply_to_downloads: z.boolean().default(false),
  })
  .superRefine((w, ctx) => {
    if (w.kind === "text" && w.text === "")
      ctx.addIssue({ code: "custom", path: ["text"], message: WATERMARK_TEXT_REQUIRED });
  });
export type Watermark = z.output<typeof Watermark>;

/** A placeholder-free text: what the picture carries for this visitor on this day. */
export function fillWatermarkText(text: string, values: { visitor: string; link: string; date: string }): string {
  return text
    .replaceAll("{visitor}", values.visitor)
    .replaceAll("{link}", values.link)
    .replaceAll("{date}", values.date);
}

/** A watermarked video rendition (burned in on demand): its state, and its URL once ready. */
export const WatermarkedVideo = z.object({
  state: z.enum(["preparing", "ready", "failed"]),
  /** 0–100 while preparing. */
  progress: z.number().int().min(0).max(100),
  video_url: z.string().nullable(),
  error: z.string().nullable(),
});
export type WatermarkedVideo = z.infer<typeof WatermarkedVideo>;
export const WATERMARK_PREPARING = "Preparing the watermarked video…";

/** `watermark-video`: burn a link's watermark into one video's web copy (the rendition's registry key). */
export const WatermarkVideoPayload = z.object({
  key: z.string(),
  link_id: z.string(),
  hash: z.string(),
  /** `{workspace}/{version directory}`. */
  directory: z.string(),
  visitor: z.string(),
});
export type WatermarkVideoPayload = z.infer<typeof WatermarkVideoPayload>;

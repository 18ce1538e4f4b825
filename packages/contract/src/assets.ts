import { z } from "zod";
import { Id } from "./common.ts";
import { AssetStatus, FileType } from "./uploads.ts";

export const AssetParams = z.object({ id: Id, assetId: Id });

export const AiTag = z.object({ label: z.string(), confidence: z.number(), type: z.string() });
export const AssetPage = z.object({
  number: z.number().int(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

export const Asset = z.object({
  id: Id,
  workspace_id: Id,
  name: z.string(),
  description: z.string().nullable(),
  file_type: FileType,
  file_extension: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  status: AssetStatus,
  error: z.string().nullable(),
  url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  grid_url: z.string().nullable(),
  video_url: z.string().nullable(),
  placeholder: z.string().nullable(),
  directory: z.string().nullable(),
  favorite: z.boolean(),
  tags: z.array(z.string()),
  ai_tags: z.array(z.string()),
  ai_tag_details: z.array(AiTag),
  boards: z.array(z.object({ id: Id, name: z.string() })),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  duration: z.number().nullable(),
  page_count: z.number().int().nullable(),
  pages: z.array(AssetPage),
  preview_unavailable: z.string().nullable(),
  upload_board_id: Id.nullable(),
  is_temp: z.boolean(),
  sha256: z.string().nullable(),
  exif: z
    .object({
      make: z.string().nullable(),
      model: z.string().nullable(),
      lens: z.string().nullable(),
      iso: z.number().nullable(),
      aperture: z.number().nullable(),
      exposure_time: z.number().nullable(),
      focal_length: z.number().nullable(),
      date_taken: z.string().nullable(),
      latitude: z.number().nullable(),
      longitude: z.number().nullable(),
      altitude: z.number().nullable(),
    })
    .nullable(),
  colors: z
    .object({ palette: z.array(z.object({ hex: z.string(), share: z.number() })), simplified: z.array(z.string()) })
    .nullable(),
  quality: z.object({ contrast: z.number(), sharpness: z.number(), brightness: z.number() }).nullable(),
  date_uploaded: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Asset = z.infer<typeof Asset>;

export const TagSummary = z.object({ name: z.string(), count: z.number().int() });
export const TagList = z.array(TagSummary);
export const AiTagSummary = z.object({
  name: z.string(),
  count: z.number().int(),
  type: z.string(),
  max_confidence: z.number(),
});
export const AiTagList = z.array(AiTagSummary);

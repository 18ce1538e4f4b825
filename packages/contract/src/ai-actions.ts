import { z } from "zod";
import { Id } from "./common.ts";
import { regexProblem } from "./user-regex.ts";

/**
 * AI actions (issue 16; spec 02 §7 names the calls, not the shapes: these are ours). An action hangs on
 * a field option and says when the pipeline picks that option for an asset, from what the pipeline
 * already sees on this machine, offline: the object detector's labels, OCR text, the palette, the
 * quality scores and the file's metadata.
 *
 * Rules: an action sets its option only when the asset has no value for the field, or the value was
 * last set by an action (a person's value — even one they cleared to Unassigned — is never replaced; a
 * person's edit takes the value over). When an action-owned value no longer matches anything it is
 * cleared. Single select: the most confident matching option wins (ties: the option listed first);
 * multi select: every matching option. Evaluated when an asset finishes processing and on demand
 * ("run on all assets", a job with progress and a count of changes).
 */
export const AI_ACTION_KINDS = [
  "object_detected",
  "text_in_image",
  "dominant_color",
  "image_quality",
  "metadata_matches",
] as const;
export const AiActionKind = z.enum(AI_ACTION_KINDS);
export type AiActionKind = z.infer<typeof AiActionKind>;

/** The 80 COCO classes of the object detector the pipeline runs, in the detector's order. */
export const DETECTOR_LABELS = [
  ...["person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light"],
  ...["fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow"],
  ...["elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag", "tie", "suitcase", "frisbee"],
  ...["skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard", "surfboard"],
  ...["tennis racket", "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple"],
  ...["sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch"],
  ...["potted plant", "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard"],
  ...["cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase"],
  ...["scissors", "teddy bear", "hair drier", "toothbrush"],
] as const;

const Score = z.number().min(0).max(100);
const Pattern = z.string().trim().min(1).max(200);

export const ObjectDetectedConfig = z
  .object({
    labels: z.array(z.enum(DETECTOR_LABELS)).min(1).max(80).describe("Objects (any of)"),
    min_confidence: z.number().min(0.05).max(1).default(0.5).describe("Minimum confidence (0–1)"),
  })
  .strict();

export const TextInImageConfig = z
  .object({
    words: z.array(z.string().trim().min(1).max(100)).max(20).optional().describe("Words or phrases"),
    match: z.enum(["any", "all"]).default("any").describe("Match any or all of the words"),
    pattern: Pattern.optional().describe("Regular expression (optional; RE2 syntax)"),
    case_sensitive: z.boolean().default(false).describe("Case sensitive"),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (!c.words?.length && !c.pattern)
      ctx.addIssue({ code: "custom", path: ["words"], message: "Give words or a pattern" });
    const problem = c.pattern ? regexProblem(c.pattern, { caseSensitive: c.case_sensitive }) : null;
    if (problem) ctx.addIssue({ code: "custom", path: ["pattern"], message: problem });
  });

export const DominantColorConfig = z
  .object({
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "Expected a colour like #1e90ff")
      .describe("Colour"),
    max_distance: z.number().min(1).max(50).default(15).describe("Maximum distance (CIEDE2000 ΔE)"),
    min_share: z.number().min(0.01).max(1).default(0.1).describe("Minimum share of the picture (0–1)"),
  })
  .strict();

export const ImageQualityConfig = z
  .object({
    min_sharpness: Score.optional().describe("Sharpness at least (0–100)"),
    max_sharpness: Score.optional().describe("Sharpness at most (0–100)"),
    min_contrast: Score.optional().describe("Contrast at least (0–100)"),
    max_contrast: Score.optional().describe("Contrast at most (0–100)"),
    min_brightness: Score.optional().describe("Brightness at least (0–100)"),
    max_brightness: Score.optional().describe("Brightness at most (0–100)"),
  })
  .strict()
  .refine((c) => Object.values(c).some((v) => v !== undefined), { message: "Give at least one threshold" });

const Lat = z.number().min(-90).max(90);
const Lon = z.number().min(-180).max(180);
export const MetadataMatchesConfig = z
  .object({
    file_name: Pattern.optional().describe("File name pattern (glob: * and ?)"),
    folder_path: Pattern.optional().describe("Board path pattern (glob, e.g. Clients/*/Logos)"),
    use_regex: z.boolean().default(false).describe("Patterns are regular expressions"),
    camera_make: z.string().trim().min(1).max(100).optional().describe("Camera make contains"),
    camera_model: z.string().trim().min(1).max(100).optional().describe("Camera model contains"),
    gps_south: Lat.optional().describe("GPS box: south latitude"),
    gps_west: Lon.optional().describe("GPS box: west longitude"),
    gps_north: Lat.optional().describe("GPS box: north latitude"),
    gps_east: Lon.optional().describe("GPS box: east longitude"),
    orientation: z.enum(["landscape", "portrait", "square"]).optional().describe("Orientation"),
  })
  .strict()
  .superRefine((c, ctx) => {
    const gps = [c.gps_south, c.gps_west, c.gps_north, c.gps_east].filter((v) => v !== undefined).length;
    if (gps !== 0 && gps !== 4)
      ctx.addIssue({ code: "custom", path: ["gps_south"], message: "Give all four sides of the GPS box" });
    if (gps === 4 && c.gps_south! > c.gps_north!)
      ctx.addIssue({ code: "custom", path: ["gps_south"], message: "South must be below north" });
    const any = [c.file_name, c.folder_path, c.camera_make, c.camera_model, c.orientation].some((v) => v) || gps === 4;
    if (!any) ctx.addIssue({ code: "custom", path: ["file_name"], message: "Give at least one condition" });
    // Globs need no check: any text is one, and they run in a linear matcher of ours (server).
    for (const k of ["file_name", "folder_path"] as const) {
      const problem = c.use_regex && c[k] ? regexProblem(c[k]) : null;
      if (problem) ctx.addIssue({ code: "custom", path: [k], message: problem });
    }
  });

export const AI_ACTION_CONFIGS = {
  object_detected: ObjectDetectedConfig,
  text_in_image: TextInImageConfig,
  dominant_color: DominantColorConfig,
  image_quality: ImageQualityConfig,
  metadata_matches: MetadataMatchesConfig,
} as const;
export type AiActionConfig<K extends AiActionKind = AiActionKind> = z.output<(typeof AI_ACTION_CONFIGS)[K]>;

/** Create or replace an action: its kind and that kind's config (checked against the kind's schema). */
export const AiActionBody = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("object_detected"), config: ObjectDetectedConfig }),
  z.object({ kind: z.literal("text_in_image"), config: TextInImageConfig }),
  z.object({ kind: z.literal("dominant_color"), config: DominantColorConfig }),
  z.object({ kind: z.literal("image_quality"), config: ImageQualityConfig }),
  z.object({ kind: z.literal("metadata_matches"), config: MetadataMatchesConfig }),
]);
export type AiActionBody = z.input<typeof AiActionBody>;

export const AiAction = z.object({
  id: Id,
  field_id: Id,
  option_id: Id,
  kind: AiActionKind,
  config: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AiAction = z.infer<typeof AiAction>;

export const AiActionKindInfo = z.object({
  kind: AiActionKind,
  title: z.string(),
  description: z.string(),
  /** JSON Schema (draft 2020-12) of the config, as the web's form generator reads it. */
  config_schema: z.record(z.string(), z.unknown()),
});
export const AvailableAiActions = z.array(AiActionKindInfo);
export type AiActionKindInfo = z.infer<typeof AiActionKindInfo>;

export const AiActionDeleted = z.object({ status: z.literal("ok") });
export const AiActionParams = z.object({ id: Id, fieldId: Id, optId: Id, actionId: Id });

/** What an evaluation saw: only the parts its kind looks at are present. Boxes are 0–1 of the picture. */
export const AiEvidence = z.object({
  objects: z
    .array(z.object({ label: z.string(), confidence: z.number(), box: z.array(z.number()).length(4).nullable() }))
    .optional(),
  words: z
    .array(z.object({ text: z.string(), confidence: z.number(), box: z.array(z.number()).length(4), page: z.number() }))
    .optional(),
  colors: z.array(z.object({ hex: z.string(), share: z.number(), distance: z.number() })).optional(),
  quality: z.object({ sharpness: z.number(), contrast: z.number(), brightness: z.number() }).partial().optional(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).optional(),
  note: z.string().optional(),
});
export type AiEvidence = z.infer<typeof AiEvidence>;

export const AiActionResult = z.object({
  id: Id,
  action_id: Id,
  field_id: Id,
  option_id: Id,
  option_label: z.string(),
  kind: AiActionKind,
  content_type: z.literal("asset"),
  object_id: Id,
  matched: z.boolean(),
  /** 0–1. */
  confidence: z.number(),
  evidence: AiEvidence,
  /** Whether this evaluation set (or kept) the field's value to this action's option. */
  set_value: z.boolean(),
  evaluated_at: z.string(),
});
export type AiActionResult = z.infer<typeof AiActionResult>;
export const AiActionResultList = z.array(AiActionResult);
export const AiResultsQuery = z.object({ content_type: z.literal("asset"), object_id: Id });

/** "Run on all assets": one job per call; progress is read back by id. */
export const AiRunBody = z.object({ field_id: Id.optional() });
export const AiRun = z.object({
  id: Id,
  status: z.enum(["queued", "running", "done", "failed"]),
  field_id: Id.nullable(),
  total: z.number().int(),
  processed: z.number().int(),
  /** Assets whose value an action changed. */
  changes: z.number().int(),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type AiRun = z.infer<typeof AiRun>;
export const AiRunParams = z.object({ id: Id, runId: Id });

/**
 * OCR of an image or a document's page images, shown in the viewer's details tab. `pending`: the asset
 * is COMPLETED and its text is still to be read (a background job at low priority, after processing).
 */
export const RecognisedText = z.object({
  status: z.enum(["none", "pending", "done", "failed"]),
  text: z.string(),
  words: z.array(
    z.object({ text: z.string(), confidence: z.number(), box: z.array(z.number()).length(4), page: z.number() }),
  ),
  error: z.string().nullable(),
});
export type RecognisedText = z.infer<typeof RecognisedText>;

/** `run-ai-actions`: evaluate every asset of a workspace for one run row. */
export const RunAiActionsPayload = z.object({ run_id: z.string() });

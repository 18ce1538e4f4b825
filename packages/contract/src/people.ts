import { z } from "zod";
import { Id } from "./common.ts";

/**
 * People (issue 32): faces found in pictures, grouped into people.
 *
 * - The pipeline looks for faces in an image, a document's pages and a video's poster and key
 *   frames, once the asset is COMPLETED (its own job, after the renditions). Each face has a `box`
 *   ([x, y, width, height], fractions 0–1 of its picture), a `quality` (0–1: detector score × size ×
 *   pose × sharpness) and a descriptor (never sent). Faces under FACE_QUALITY_MIN (small, blurred,
 *   in profile) are kept and can be named by hand, but are never grouped automatically.
 * - Grouping: a new face joins the nearest person (distance to the person's mean descriptor) within
 *   the threshold, else waits; a periodic job clusters the waiting faces (DBSCAN) into new unnamed
 *   people. What a person decides is never undone by the job: a merge, a face moved to a person or
 *   to none (`person_id: null`), and "not this person" (the face never joins that person again).
 * - `GET /workspaces/{ws}/people`: people with their face and asset counts and a cover face, named
 *   first (by name), then unnamed (most faces first); hidden ones only with `hidden=true`.
 * - The listing's `people: {includes, excludes}`: assets whose current version shows any of
 *   `includes` (AND none of `excludes`).
 * - The workspace setting (ADMIN) turns face recognition off: detection stops and every face,
 *   descriptor and person of the workspace is deleted at once; turning it on again looks at every
 *   picture again. Share-link visitors never receive faces or people.
 */
export const FACE_QUALITY_MIN = 0.45;
export const PERSON_NAME_MAX = 100;
export const PEOPLE_FACES_PAGE_SIZE = 60;
/** At most this many people are merged into one at once. */
export const PEOPLE_MERGE_MAX = 50;

export const PersonParams = z.object({ id: Id, personId: Id });
export const FaceParams = z.object({ id: Id, faceId: Id });

export const FaceBox = z.tuple([z.number(), z.number(), z.number(), z.number()]);
export type FaceBox = z.infer<typeof FaceBox>;

/** A face as drawn over a picture: its asset, where (which picture: 0 the image or poster, a page number, a key frame), box. */
export const Face = z.object({
  id: Id,
  asset_id: Id,
  /** 0: the image, a document's first page or a video's poster; n: page n + 1 or key frame n. */
  frame: z.number().int(),
  box: FaceBox,
  quality: z.number(),
  /** Whether the quality is high enough for grouping. */
  groupable: z.boolean(),
  person: z.object({ id: Id, name: z.string().nullable() }).nullable(),
  /** Whether a member placed it (moved, named, set to none): the grouping job leaves it alone. */
  by_user: z.boolean(),
  /**
   * The rendition the face is on, for cropping (the thumbnail, a page, or a video's scrub-bar sprite),
   * and the face's box on it (a key frame's box moved into the sprite's coordinates).
   */
  picture_url: z.string().nullable(),
  picture_box: FaceBox,
});
export type Face = z.infer<typeof Face>;

export const Person = z.object({
  id: Id,
  name: z.string().nullable(),
  hidden: z.boolean(),
  face_count: z.number().int(),
  asset_count: z.number().int(),
  cover: Face.nullable(),
});
export type Person = z.infer<typeof Person>;

export const PeopleQuery = z.object({
  hidden: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true"),
});
export const PeopleAnswer = z.object({ data: z.array(Person), enabled: z.boolean() });
export type PeopleAnswer = z.infer<typeof PeopleAnswer>;

const PersonName = z
  .string()
  .trim()
  .min(1, "A name cannot be empty.")
  .max(PERSON_NAME_MAX, `A name has at most ${PERSON_NAME_MAX} characters.`);

export const PersonPatch = z
  .object({
    name: PersonName.nullable().optional(),
    hidden: z.boolean().optional(),
    cover_face_id: Id.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "Nothing to change." });
export type PersonPatch = z.infer<typeof PersonPatch>;

export const PersonMergeBody = z
  .object({
    /** Merged into the person of the path, then gone. */
    person_ids: z.array(Id).min(1, "Choose at least one person to merge.").max(PEOPLE_MERGE_MAX),
  })
  .strict();
export type PersonMergeBody = z.infer<typeof PersonMergeBody>;

export const PersonFacesQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(PEOPLE_FACES_PAGE_SIZE),
});
export const FacesPage = z.object({
  data: z.array(Face),
  page: z.number().int(),
  page_size: z.number().int(),
  total_count: z.number().int(),
  has_more: z.boolean(),
});
export type FacesPage = z.infer<typeof FacesPage>;

/**
 * One face's person, exactly one of: `person_id` (an existing person, or null: nobody), `name` (the
 * person of that name, created when none has it: "Who is this?"), `not_person_id` (not this person:
 * the face leaves them for good and waits again).
 */
export const FacePatch = z
  .object({
    person_id: Id.nullable().optional(),
    name: PersonName.optional(),
    not_person_id: Id.optional(),
  })
  .strict()
  .refine((b) => [b.person_id, b.name, b.not_person_id].filter((v) => v !== undefined).length === 1, {
    message: "Give exactly one of person_id, name or not_person_id.",
  });
export type FacePatch = z.infer<typeof FacePatch>;

export const AssetFaces = z.object({ data: z.array(Face), enabled: z.boolean(), scanned: z.boolean() });
export type AssetFaces = z.infer<typeof AssetFaces>;

export const FaceSettings = z.object({ enabled: z.boolean() }).strict();
export type FaceSettings = z.infer<typeof FaceSettings>;

export const PeopleFilter = z
  .object({ includes: z.array(Id).max(50).optional(), excludes: z.array(Id).max(50).optional() })
  .strict();
export type PeopleFilter = z.infer<typeof PeopleFilter>;

export const PEOPLE_MESSAGES = {
  personNotFound: "Person not found.",
  faceNotFound: "Face not found.",
  mergeSelf: "A person cannot be merged into themselves.",
  coverNotTheirs: "The cover must be one of this person's faces.",
  disabled: "Face recognition is turned off in this workspace.",
};

import type { ColumnType, Generated } from "kysely";
import type { AssetStatus, FileType, Renditions } from "./types.ts";

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** What the pipeline found in a version's file (its AI tags as the asset's `ai_tags` rows have them). */
export interface VersionAiTag {
  label: string;
  confidence: number;
  type: string;
}

/** Same bytes found in the workspace when an upload completed (issue 29). */
export interface DuplicateOfColumn {
  asset_id: string;
  version_id: string;
  name: string;
}

/**
 * Versions of an asset (migration 20261129-0001): one upload of its file each, with the file's own
 * facts and media directory `{workspace}/{id}`. Written only by the assets module.
 */
/** What a file is once processed: the columns an asset shares with each of its versions (the current one's). */
export interface VersionFacts {
  status: Generated<AssetStatus>;
  error_reason: string | null;
  file_type: Generated<FileType>;
  mime_type: Generated<string>;
  file_extension: Generated<string>;
  size: Generated<number>;
  sha256: string | null;
  storage_key: string | null;
  directory: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  page_count: number | null;
  metadata: Generated<unknown>;
  placeholder: string | null;
  renditions: Generated<Renditions>;
  exif: unknown | null;
  camera_make: string | null;
  camera_model: string | null;
  lens: string | null;
  iso: number | null;
  aperture: number | null;
  exposure_time: number | null;
  focal_length: number | null;
  date_taken: NullableTimestamp;
  gps_latitude: number | null;
  gps_longitude: number | null;
  gps_altitude: number | null;
  palette: Array<{ hex: string; share: number; lab?: { l: number; a: number; b: number } }> | null;
  simplified_colors: Generated<string[]>;
  quality_contrast: number | null;
  quality_sharpness: number | null;
  quality_brightness: number | null;
  processing_attempts: Generated<number>;
  processed_at: NullableTimestamp;
}

export interface AssetVersionsTable extends VersionFacts {
  id: string;
  asset_id: string;
  workspace_id: string;
  number: number;
  name: string;
  /** Its AI tags while it is not current (a current version's are the asset's `ai_tags` rows); null: none kept. */
  ai_tags: VersionAiTag[] | null;
  duplicate_of: DuplicateOfColumn | null;
  uploaded_by: string | null;
  created_at: Generated<Date>;
  deleted_at: NullableTimestamp;
  deleted_by: string | null;
  delete_batch: string | null;
  made_current_at: NullableTimestamp;
  made_current_by: string | null;
}

/** The asset's own version columns (migration 20261129-0001). */
export interface AssetVersionPointers {
  /** null: the first version, whose id is the asset's own. */
  current_version_id: string | null;
  current_version_number: Generated<number>;
  /** Live versions (not deleted, not still uploading). */
  version_count: Generated<number>;
  /** The newest version when it is newer than the current one and not COMPLETED. */
  newer_version_id: string | null;
  /** The current version's. */
  duplicate_of: DuplicateOfColumn | null;
}

import type { Generated } from "kysely";

/** People (migration 20261206-3203): see the migration for what each table keeps. */
export interface FaceSettingsTable {
  workspace_id: string;
  enabled: boolean;
  updated_at: Generated<Date>;
}

export interface PeopleTable {
  id: Generated<string>;
  workspace_id: string;
  name: string | null;
  hidden: Generated<boolean>;
  cover_face_id: string | null;
  /** Mean of the person's groupable faces' descriptors (not re-normalised). */
  centroid: number[] | null;
  centroid_count: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface FacesTable {
  id: Generated<string>;
  workspace_id: string;
  version_id: string;
  frame: number;
  box: number[];
  quality: number;
  descriptor: number[] | null;
  person_id: string | null;
  by_user: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface FaceRejectionsTable {
  face_id: string;
  person_id: string;
}

export interface FaceScansTable {
  version_id: string;
  workspace_id: string;
  face_count: number;
  error: string | null;
  scanned_at: Generated<Date>;
}

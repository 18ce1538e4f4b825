import type { Generated } from "kysely";

/** Watermarked renditions made for share links (migration 20261207-3303, issue 33). */
export interface WatermarkRenditionsTable {
  key: string;
  link_id: string;
  hash: string;
  status: Generated<"preparing" | "ready" | "failed">;
  progress: Generated<number>;
  error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

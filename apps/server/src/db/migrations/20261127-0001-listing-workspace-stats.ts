import { type Kysely, sql } from "kysely";

/**
 * A server with several workspaces: the planner multiplied "this workspace" by "IMAGE" as if
 * independent, so a workspace of photos beside another of videos was estimated at the server-wide
 * share of images (11,000 images were estimated at 7,668 when other workspaces held mostly videos and
 * documents). Extended statistics on (workspace, file type) give it each large workspace's own mix;
 * the estimate decides whether a listing counts exactly or answers an estimate, and its plan.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE STATISTICS IF NOT EXISTS assets_workspace_type_stats (mcv, dependencies)
            ON workspace_id, file_type FROM assets`.execute(db);
  await sql`ANALYZE assets`.execute(db);
}

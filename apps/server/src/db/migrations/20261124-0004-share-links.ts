import { type Kysely, sql } from "kysely";

/**
 * Share links (docs/architecture.md §9, spec 02 §3): one per (content, board context). The token is 256 random
 * bits (base64url, unique); the password an argon2id hash with a version that every change bumps, so
 * anything unlocked with an older password stops working at once.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE share_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      content_type text NOT NULL CHECK (content_type IN ('asset', 'board')),
      object_id uuid NOT NULL,
      board_id uuid REFERENCES boards(id) ON DELETE CASCADE,
      token text NOT NULL UNIQUE CHECK (char_length(token) >= 43),
      allow_commenting boolean NOT NULL DEFAULT true,
      show_comments boolean NOT NULL DEFAULT true,
      show_custom_fields boolean NOT NULL DEFAULT true,
      allow_editing_custom_fields boolean NOT NULL DEFAULT false,
      allow_downloads boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      expires_at timestamptz,
      password_hash text,
      password_version integer NOT NULL DEFAULT 0,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (show_custom_fields OR NOT allow_editing_custom_fields),
      CHECK (content_type = 'board' OR board_id IS NOT NULL)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX share_links_content ON share_links
    (workspace_id, content_type, object_id, coalesce(board_id, '00000000-0000-0000-0000-000000000000'::uuid))`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS share_links`.execute(db);
}

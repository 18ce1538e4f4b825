import { type Kysely, sql } from "kysely";

/**
 * Personal access tokens (issue 36; docs/architecture.md §4.4). A token is a user's, not a
 * workspace's: it acts as that user in each workspace they belong to, with their role there (capped
 * by its scopes). Like an API key its secret is kept only as its SHA-256; it always has an expiry.
 *
 * A password change or reset revokes the user's live tokens in the same transaction (the trigger on
 * `users.password_hash`), as it ends their other sessions: whoever learnt the old password may have
 * made one. The audit log records tokens on the account (`user_id`, no workspace) with a trigger of
 * their own, so the shared audit_row() stays as it is.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE personal_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name text NOT NULL,
      prefix text NOT NULL,
      secret_hash text NOT NULL UNIQUE,
      scopes text[] NOT NULL CHECK (cardinality(scopes) > 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      revoked_reason text
    )`.execute(db);
  await sql`CREATE INDEX personal_tokens_user ON personal_tokens (user_id, created_at)`.execute(db);

  await sql`
    CREATE FUNCTION personal_tokens_revoke_on_password() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE personal_tokens SET revoked_at = now(), revoked_reason = 'password_changed'
        WHERE user_id = NEW.id AND revoked_at IS NULL;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER personal_tokens_revoke_on_password AFTER UPDATE ON users
    FOR EACH ROW WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash)
    EXECUTE FUNCTION personal_tokens_revoke_on_password()`.execute(db);

  // One row per creation and revocation, on the account (as e-mail and password changes are).
  await sql`
    CREATE FUNCTION audit_personal_token() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      ctx jsonb := nullif(current_setting('hangar.audit', true), '')::jsonb;
      verb text;
      ch jsonb;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        verb := 'created';
        ch := jsonb_build_object('name', jsonb_build_object('after', NEW.name),
          'scopes', jsonb_build_object('after', to_jsonb(NEW.scopes)),
          'expires_at', jsonb_build_object('after', to_jsonb(NEW.expires_at)));
      ELSIF OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL THEN
        verb := 'revoked';
        ch := CASE WHEN NEW.revoked_reason IS NOT NULL
          THEN jsonb_build_object('reason', NEW.revoked_reason) END;
      ELSE
        RETURN NULL;
      END IF;
      INSERT INTO audit_events (workspace_id, user_id, actor_kind, actor_id, actor_name, ip, user_agent, request_id,
                                action, object_type, object_id, object_name, changes)
      VALUES (NULL, NEW.user_id, coalesce(ctx ->> 'k', 'system'), ctx ->> 'id', ctx ->> 'n', ctx ->> 'ip',
              left(ctx ->> 'ua', 300), ctx ->> 'rid', 'personal_token.' || verb, 'personal_token', NEW.id::text,
              left(NEW.name, 200), ch);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER audit_personal_token AFTER INSERT OR UPDATE ON personal_tokens
    FOR EACH ROW EXECUTE FUNCTION audit_personal_token()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS personal_tokens_revoke_on_password ON users`.execute(db);
  await sql`DROP FUNCTION IF EXISTS personal_tokens_revoke_on_password()`.execute(db);
  await sql`DROP TABLE IF EXISTS personal_tokens`.execute(db);
  await sql`DROP FUNCTION IF EXISTS audit_personal_token()`.execute(db);
}

import type { Db } from "../db/db.ts";

/** Secrets created by a migration and shared by every process. */
export async function loadSecret(db: Db, name: string): Promise<string> {
  const row = await db.selectFrom("app_secrets").select("value").where("name", "=", name).executeTakeFirst();
  if (!row) throw new Error(`secret ${name} is missing: run the migrations`);
  return row.value;
}

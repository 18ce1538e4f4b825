import path from "node:path";
import { describe, expect, it } from "vitest";
import { maySpeakSql, sqlOutsideRepos, sqlUses } from "../../test/sql-placement.ts";

/** The rule and its reasons: apps/server/test/sql-placement.ts (also a command: `npx tsx apps/server/test/sql-placement.ts`). */
const SRC = path.resolve(import.meta.dirname, "..");

describe("SQL only in repo files", () => {
  it("no source file outside repos, the connection and migrations speaks SQL", async () => {
    expect(await sqlOutsideRepos(SRC)).toEqual([]);
  });

  it("catches SQL in any of its forms, and passes transactions, types and look-alikes (so the check can fail)", () => {
    const text = [
      'import { type RawBuilder, sql } from "kysely";',
      'import type { Kysely } from "kysely";',
      'import * as k from "kysely";',
      'export { sql as q } from "kysely";',
      'const a = await db.selectFrom("assets").select("id").executeTakeFirst();',
      'await trx.insertInto("tags").values(row).execute();',
      "await tx",
      '  .updateTable("boards")',
      "  .set({ name })",
      "  .execute();",
      "const cond = sql<boolean>`a.is_temp = false`;",
      'const dir = sql.raw("desc");',
      'const sub = db.withRecursive("sub(id)", (q) => q);',
      'await builderFromRepo.innerJoin("b", "b.id", "a.board_id").execute();',
      '// db.deleteFrom("assets") in a comment, and in a string: "db.selectFrom(\'x\')"',
      "await db.transaction().execute(async (tx) => repo.insert(tx, row));",
      "const next = list.with(0, item);",
      'const m = await import("kysely");',
    ].join("\n");
    expect(sqlUses(text)).toEqual([
      "1: imports sql from kysely",
      "3: imports kysely whole",
      "4: re-exports sql from kysely",
      "5: .selectFrom",
      "5: .executeTakeFirst",
      "6: .insertInto",
      "8: .updateTable",
      "11: sql`…`",
      "12: sql.raw",
      '13: .withRecursive("sub(id)")',
      "14: .innerJoin",
      "18: imports kysely",
    ]);
  });

  it("lets SQL live in repo files wherever they are, the connection and migrations, and nowhere else", () => {
    for (const ok of [
      "modules/listing/repo.ts",
      "modules/listing/seek-repo.ts",
      "modules/ai-actions/repo.ts",
      "modules/fields/ai-repo.ts",
      "platform/access-repo.ts",
      "platform/rate-limit-repo.ts",
      "ops/orphans-repo.ts",
      "db/db.ts",
      "db/migrations/20261121-0001-foundation.ts",
      "modules/listing/listing.test.ts",
      "modules/listing/listing.fixture.ts",
    ])
      expect(maySpeakSql(ok), ok).toBe(true);
    for (const no of [
      "modules/listing/seek.ts",
      "modules/listing/service.ts",
      "modules/listing/repository.ts",
      "modules/listing/repo-helpers.ts",
      "platform/access.ts",
      "platform/rate-limit.ts",
      "db/cache-listener.ts",
      "ops/backup.ts",
    ])
      expect(maySpeakSql(no), no).toBe(false);
  });
});

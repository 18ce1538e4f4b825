import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

/**
 * SQL only in repo files (docs/architecture.md §3, issue 28): a feature's queries live in its `repo.ts` or
 * `*-repo.ts` (wherever that file is: a module, platform/, ops/, storage/), each function taking the
 * database or a transaction first. Elsewhere only the database connection (db/db.ts) and migrations
 * (db/migrations/) speak SQL; tests and test fixtures (`*.test.ts`, `*.fixture.ts`) make their own
 * rows. A service may still open a transaction (`db.transaction().execute((tx) => …)`) and hand `tx`
 * to repos: where a unit of work begins and ends is its decision, what the statements say is not.
 *
 * The check reads each source file's syntax (the TypeScript parser, so comments and strings never
 * count) and names, with its line:
 * - a value imported or re-exported from "kysely" (`sql`, `Kysely`, `expressionBuilder`, …; types are fine);
 * - a tagged template or call on `sql` (`sql\`…\``, `sql<T>\`…\``, `sql.raw(…)`, `sql.join(…)`, …);
 * - a Kysely query-builder method by its name (`.selectFrom`, `.insertInto`, `.updateTable`,
 *   `.deleteFrom`, joins, `.executeTakeFirst`, …) on any receiver (`db`, `trx`, a builder handed over);
 * - a common table expression (`.with("name", …)`, `.withRecursive("name", …)`).
 * Raw statements through `pg` itself (LISTEN, COPY in backups, the embedded server's set-up) are not
 * Kysely and not checked here.
 */

/** Whether the file (relative to src/, with "/") may hold SQL. */
export function maySpeakSql(rel: string): boolean {
  const base = path.posix.basename(rel);
  if (base === "repo.ts" || base.endsWith("-repo.ts")) return true;
  if (/\.(test|fixture)\.ts$/.test(base)) return true;
  return rel === "db/db.ts" || rel.startsWith("db/migrations/");
}

/** Kysely's own method names: nothing else in this code base (nor its libraries' calls here) uses them. */
const BUILDER_METHODS = new Set([
  "selectFrom",
  "selectNoFrom",
  "insertInto",
  "replaceInto",
  "updateTable",
  "deleteFrom",
  "mergeInto",
  "executeQuery",
  "executeTakeFirst",
  "executeTakeFirstOrThrow",
  "innerJoin",
  "leftJoin",
  "rightJoin",
  "fullJoin",
  "whereRef",
  "onConflict",
  "$if",
  "$call",
]);
/** Named like array or other methods too, so they count only with a CTE's name first: `.with("sub", …)`. */
const CTE_METHODS = new Set(["with", "withRecursive", "withMaterialized", "withNotMaterialized"]);
/** The members of Kysely's `sql` tag. */
const SQL_MEMBERS = new Set(["raw", "ref", "id", "lit", "literal", "join", "table", "val", "value"]);

const isKysely = (n: ts.Node | undefined) => n !== undefined && ts.isStringLiteralLike(n) && n.text === "kysely";

/** Where a source text speaks SQL: `line: what`, in order. */
export function sqlUses(source: string): string[] {
  const sf = ts.createSourceFile("check.ts", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Array<{ at: number; what: string }> = [];
  const add = (n: ts.Node, what: string) => found.push({ at: n.getStart(sf), what });
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && isKysely(n.moduleSpecifier) && n.importClause && !n.importClause.isTypeOnly) {
      const { name, namedBindings } = n.importClause;
      if (name) add(n, `imports ${name.text} from kysely`);
      if (namedBindings && ts.isNamespaceImport(namedBindings)) add(n, "imports kysely whole");
      if (namedBindings && ts.isNamedImports(namedBindings))
        for (const el of namedBindings.elements)
          if (!el.isTypeOnly) add(el, `imports ${(el.propertyName ?? el.name).text} from kysely`);
    }
    if (ts.isExportDeclaration(n) && isKysely(n.moduleSpecifier) && !n.isTypeOnly) {
      const clause = n.exportClause;
      if (!clause || ts.isNamespaceExport(clause)) add(n, "re-exports kysely");
      else
        for (const el of clause.elements)
          if (!el.isTypeOnly) add(el, `re-exports ${(el.propertyName ?? el.name).text} from kysely`);
    }
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && isKysely(n.arguments[0]))
      add(n, "imports kysely");
    if (ts.isTaggedTemplateExpression(n) && ts.isIdentifier(n.tag) && n.tag.text === "sql") add(n, "sql`…`");
    if (ts.isPropertyAccessExpression(n)) {
      const name = n.name.text;
      if (BUILDER_METHODS.has(name)) add(n.name, `.${name}`);
      if (ts.isIdentifier(n.expression) && n.expression.text === "sql" && SQL_MEMBERS.has(name)) add(n, `sql.${name}`);
    }
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const name = n.expression.name.text;
      const first = n.arguments[0];
      if (CTE_METHODS.has(name) && first !== undefined && ts.isStringLiteralLike(first))
        add(n.expression.name, `.${name}("${first.text}")`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found.sort((a, b) => a.at - b.at).map((f) => `${sf.getLineAndCharacterOfPosition(f.at).line + 1}: ${f.what}`);
}

/** Every place under `src` (the server's src/) where a file that may not speak SQL does: `file:line: what`. */
export async function sqlOutsideRepos(src: string): Promise<string[]> {
  const bad: string[] = [];
  const files = (await readdir(src, { withFileTypes: true, recursive: true }))
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const file of files) {
    const rel = path.relative(src, file).split(path.sep).join("/");
    if (maySpeakSql(rel)) continue;
    bad.push(...sqlUses(await readFile(file, "utf8")).map((u) => `${rel}:${u}`));
  }
  return bad;
}

// As a command: `npx tsx apps/server/test/sql-placement.ts [src dir]` lists what the test would refuse.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const bad = await sqlOutsideRepos(path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "..", "src")));
  for (const b of bad) console.log(b);
  process.exitCode = bad.length ? 1 : 0;
}

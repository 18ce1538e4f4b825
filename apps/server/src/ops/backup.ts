import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { processAssetSpec } from "../jobs/process-asset.ts";
import type { Runtime } from "../runtime.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import { backupRepo } from "./backup-repo.ts";

/**
 * `hangar backup <dir>` / `hangar restore <dir>`: the database and every blob, on either storage kind.
 *
 * - Database: every table of the `public` schema, each `COPY … TO STDOUT` (text format, readable by
 *   any PostgreSQL 15+) inside ONE repeatable-read, read-only transaction, so all tables come from
 *   the same instant. No pg_dump is needed (the embedded PostgreSQL ships none). The job queue's
 *   schema is not kept: jobs are transient; a restore queues processing again for assets still
 *   `processing`, and periodic jobs are scheduled by every start.
 * - Blobs: every object the store lists, streamed to `blobs/<key>` with its sha256.
 * - `manifest.json`: migrations, row counts per table, and key/size/sha256 of every blob.
 * Restore checks every blob file against the manifest BEFORE touching anything, then replaces the
 * tables in one transaction (row counts checked before commit), then writes the blobs and removes
 * blobs the backup does not have: the result is the backup, byte for byte.
 */
export interface Manifest {
  format: 1;
  created_at: string;
  migrations: string[];
  tables: Array<{ name: string; rows: number; file: string }>;
  blobs: Array<{ key: string; size: number; sha256: string }>;
}

export interface BackupDeps {
  pool: pg.Pool;
  store: BlobStore;
  /** Called for progress lines (the CLI prints them). */
  say?: (line: string) => void;
}

const MIGRATION_TABLES = new Set(["kysely_migration", "kysely_migration_lock"]);
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function publicTables(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ tablename: string }>(
    "select tablename from pg_tables where schemaname = 'public' order by tablename",
  );
  return rows.map((r) => r.tablename);
}

async function rowCount(client: pg.PoolClient, table: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>(`select count(*) as n from ${ident(table)}`);
  return Number(rows[0]?.n ?? 0);
}

async function appliedMigrations(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>("select name from kysely_migration order by name");
  return rows.map((r) => r.name);
}

function hashing(onDone: (sha256: string, size: number) => void) {
  const h = createHash("sha256");
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      h.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
    flush(cb) {
      onDone(h.digest("hex"), size);
      cb();
    },
  });
}

async function sha256File(file: string): Promise<{ sha256: string; size: number }> {
  const h = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    h.update(chunk);
    size += chunk.length;
  }
  return { sha256: h.digest("hex"), size };
}

export async function backup(deps: BackupDeps, dir: string): Promise<Manifest> {
  const say = deps.say ?? (() => {});
  await mkdir(dir, { recursive: true });
  if ((await readdir(dir)).length > 0) throw new Error(`${dir} is not empty: back up into a new directory.`);
  await mkdir(path.join(dir, "db"));
  await mkdir(path.join(dir, "blobs"));

  const client = await deps.pool.connect();
  const manifest: Manifest = { format: 1, created_at: new Date().toISOString(), migrations: [], tables: [], blobs: [] };
  try {
    await client.query("begin isolation level repeatable read read only");
    manifest.migrations = await appliedMigrations(client);
    for (const name of await publicTables(client)) {
      const file = `db/${name}.copy`;
      await pipeline(client.query(copyTo(`copy ${ident(name)} to stdout`)), createWriteStream(path.join(dir, file)));
      const rows = await rowCount(client, name);
      manifest.tables.push({ name, rows, file });
      say(`  table ${name}: ${rows} rows`);
    }
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    client.release();
  }

  let bytes = 0;
  for await (const blob of deps.store.list("")) {
    const target = path.join(dir, "blobs", blob.key);
    await mkdir(path.dirname(target), { recursive: true });
    let entry = { key: blob.key, size: 0, sha256: "" };
    await pipeline(
      await deps.store.read(blob.key),
      hashing((sha256, size) => {
        entry = { key: blob.key, size, sha256 };
      }),
      createWriteStream(target),
    );
    manifest.blobs.push(entry);
    bytes += entry.size;
  }
  say(`  ${manifest.blobs.length} blobs, ${bytes} bytes`);
  await writeFile(path.join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

export async function restore(deps: BackupDeps, dir: string): Promise<Manifest> {
  const say = deps.say ?? (() => {});
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as Manifest;
  if (manifest.format !== 1) throw new Error(`Unknown backup format ${String(manifest.format)}.`);

  // 1. Every blob file is what the manifest says, before anything changes.
  for (const b of manifest.blobs) {
    const file = path.join(dir, "blobs", b.key);
    const got = await sha256File(file).catch(() => null);
    if (!got || got.sha256 !== b.sha256 || got.size !== b.size) {
      throw new Error(
        `Blob ${b.key} in the backup is missing or damaged (sha256 or size differ); nothing was changed.`,
      );
    }
  }
  for (const t of manifest.tables) await stat(path.join(dir, t.file));

  // 2. The tables, all or nothing.
  const client = await deps.pool.connect();
  try {
    const migrations = await appliedMigrations(client);
    if (migrations.join() !== manifest.migrations.join()) {
      throw new Error(
        `The backup was made at migration ${manifest.migrations.at(-1)}; this database is at ${migrations.at(-1)}. Restore with the same Hangar version.`,
      );
    }
    const live = new Set(await publicTables(client));
    const tables = manifest.tables.filter((t) => !MIGRATION_TABLES.has(t.name));
    for (const t of tables) if (!live.has(t.name)) throw new Error(`Table ${t.name} does not exist here.`);
    await client.query("begin");
    // Replica mode: foreign keys and triggers stay quiet while tables are refilled in any order
    // (the rows were consistent when copied; search vectors are copied as they were).
    await client.query("set local session_replication_role = replica");
    const others = [...live].filter((n) => !MIGRATION_TABLES.has(n));
    if (others.length) await client.query(`truncate ${others.map(ident).join(", ")}`);
    for (const t of tables) {
      await pipeline(
        createReadStream(path.join(dir, t.file)),
        client.query(copyFrom(`copy ${ident(t.name)} from stdin`)),
      );
      const restored = await rowCount(client, t.name);
      if (restored !== t.rows) throw new Error(`Table ${t.name}: ${restored} rows restored, ${t.rows} expected.`);
      say(`  table ${t.name}: ${t.rows} rows`);
    }
    // Identity and serial columns (the audit log's, the webhook outbox's) go on after the restored rows.
    const counters = await client.query<{ t: string; c: string }>(
      `select table_name as t, column_name as c from information_schema.columns
        where table_schema = 'public' and (is_identity = 'YES' or column_default like 'nextval(%')`,
    );
    for (const { t, c } of counters.rows)
      await client.query(
        `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${ident(c)}) from ${ident(t)}), 0) + 1, false)`,
        [`public.${ident(t)}`, c],
      );
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    client.release();
  }

  // 3. The blobs: written from the checked files; anything the backup lacks goes.
  const keep = new Set(manifest.blobs.map((b) => b.key));
  for (const b of manifest.blobs) {
    const put = await deps.store.putStream(b.key, createReadStream(path.join(dir, "blobs", b.key)));
    if (put.size !== b.size) throw new Error(`Blob ${b.key}: wrote ${put.size} bytes, expected ${b.size}.`);
  }
  let removed = 0;
  const stale: string[] = [];
  for await (const blob of deps.store.list("")) if (!keep.has(blob.key)) stale.push(blob.key);
  for (const key of stale) {
    await deps.store.delete(key);
    removed += 1;
  }
  say(`  ${manifest.blobs.length} blobs written, ${removed} not in the backup removed`);
  return manifest;
}

/**
 * Jobs are not in a backup: versions that were being processed (an asset's first, or a newer one)
 * are queued again (the step is idempotent).
 */
export async function requeueProcessing(rt: Runtime): Promise<number> {
  const rows = await backupRepo.processingVersions(rt.db);
  if (rows.length === 0) return 0;
  await rt.jobs.start(rt.jobDefinitions, { work: false, concurrency: 1 });
  for (const r of rows) await rt.jobs.send(processAssetSpec, { asset_id: r.asset_id, version_id: r.id });
  return rows.length;
}

import { randomUUID } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/** A new, empty database on the same server as the run's (dropped afterwards). */
export async function freshDatabase() {
  const base = new URL(inject("databaseUrl"));
  const name = `hangar_extra_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineRoute } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { coverageGaps } from "../../test/route-coverage.ts";

describe("the route-coverage gate", () => {
  it("names a route never seen succeeding, and a route with a body never seen refusing one with 422", () => {
    const routes = [
      defineRoute({ method: "GET", path: "/things", tag: "t", access: "user", response: { 200: z.object({}) } }),
      defineRoute({
        method: "POST",
        path: "/things",
        tag: "t",
        access: "user",
        body: z.object({ a: z.string() }),
        response: { 200: z.object({}) },
      }),
      defineRoute({
        method: "PUT",
        path: "/things/:id",
        tag: "t",
        access: "user",
        body: z.object({ a: z.string() }),
        response: { 200: z.object({}) },
      }),
      defineRoute({ method: "DELETE", path: "/things/:id", tag: "t", access: "user", response: { 200: z.object({}) } }),
    ];
    const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-coverage-test-"));
    const lines = (rows: Array<[string, number]>) =>
      rows.map(([route, status]) => JSON.stringify({ route, status })).join("\n");
    writeFileSync(
      path.join(dir, "1.jsonl"),
      `${lines([
        ["GET /things", 200],
        ["POST /things", 201],
        ["PUT /things/:id", 404],
      ])}\n${JSON.stringify({ route: "POST /things", status: 201, audited: 0 })}\n`,
    );
    writeFileSync(
      path.join(dir, "2.jsonl"),
      `${lines([
        ["POST /things", 422],
        ["DELETE /things/:id", 403],
      ])}\n`,
    );
    expect(coverageGaps(dir, routes)).toEqual({
      noSuccess: ["PUT /things/:id", "DELETE /things/:id"],
      noInvalid: ["PUT /things/:id"],
      // A mutation seen succeeding only without an audit row.
      noAudit: ["POST /things"],
    });
  });
});

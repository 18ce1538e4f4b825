import { Readable } from "node:stream";
import type {
  AuditActorKind,
  AuditEvent,
  AuditExportQuery,
  AuditPage,
  AuditQuery,
  AuditSettings,
} from "@hangar/contract";
import { stringify } from "csv-stringify";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { notFound } from "../../platform/errors.ts";
import { AUDIT } from "./policy.ts";
import { type AuditFilter, type AuditRecord, type AuditRow, auditRepo, historyRepo } from "./repo.ts";

const toEvent = (r: AuditRow, where: boolean): AuditEvent => ({
  id: String(r.id),
  at: r.at.toISOString(),
  actor: { kind: r.actor_kind as AuditActorKind, id: r.actor_id, name: r.actor_name },
  action: r.action,
  object: { type: r.object_type, id: r.object_id, name: r.object_name },
  changes: r.changes,
  ...(where ? { ip: r.ip, user_agent: r.user_agent } : {}),
});

const filterOf = (q: AuditExportQuery): AuditFilter => ({
  actorKind: q.actor_kind,
  actorId: q.actor_id,
  action: q.action,
  objectId: q.object_id,
  from: q.from,
  to: q.to,
});

function page(rows: AuditRow[], limit: number, where: boolean): AuditPage {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { data: shown.map((r) => toEvent(r, where)), next_cursor: more ? String(shown.at(-1)!.id) : null };
}

/** Rows an export reads at a time, and at most (a bigger log is exported in time ranges). */
const EXPORT_BATCH = 1000;
export const EXPORT_MAX_ROWS = 1_000_000;
const CSV_COLUMNS = ["at", "actor_kind", "actor_id", "actor_name", "action", "object_type", "object_id"];

/**
 * The audit log (issue 36, docs/architecture.md §4.5). Most rows come from the triggers; this module
 * lists them, exports them, keeps their retention, purges, and records what no table change shows
 * (sign-ins, failed sign-ins, exports, board downloads) through `record`.
 */
export function createAuditService(deps: { db: Db; access: Access }) {
  const { db, access } = deps;

  async function* exportRows(workspaceId: string, f: AuditFilter) {
    let before: string | null = null;
    let n = 0;
    while (n < EXPORT_MAX_ROWS) {
      const rows = await auditRepo.list(db, workspaceId, f, before, EXPORT_BATCH);
      for (const r of rows)
        yield [
          r.at.toISOString(),
          r.actor_kind,
          r.actor_id ?? "",
          r.actor_name ?? "",
          r.action,
          r.object_type,
          r.object_id ?? "",
          r.object_name ?? "",
          r.changes ? JSON.stringify(r.changes) : "",
          r.ip ?? "",
          r.user_agent ?? "",
        ];
      n += rows.length;
      if (rows.length < EXPORT_BATCH) return;
      before = String(rows.at(-1)!.id);
    }
  }

  return {
    record: (r: AuditRecord) => auditRepo.insert(db, r),

    async list(actor: UserActor, workspaceId: string, q: AuditQuery): Promise<AuditPage> {
      await access.require(actor, AUDIT.read, inWorkspace(workspaceId));
      const rows = await auditRepo.list(db, workspaceId, filterOf(q), q.cursor ?? null, q.limit + 1);
      return page(rows, q.limit, true);
    },

    /** The CSV, streamed page by page; the export itself is recorded first. */
    async export(actor: UserActor, workspaceId: string, q: AuditExportQuery): Promise<Readable> {
      await access.require(actor, AUDIT.read, inWorkspace(workspaceId));
      const f = filterOf(q);
      await auditRepo.insert(db, {
        workspaceId,
        action: "audit.exported",
        object: { type: "audit", id: workspaceId },
        changes: Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)),
      });
      const csv = stringify({
        header: true,
        columns: [...CSV_COLUMNS, "object_name", "changes", "ip", "user_agent"],
      });
      return Readable.from(exportRows(workspaceId, f)).pipe(csv);
    },

    async settings(actor: UserActor, workspaceId: string): Promise<AuditSettings> {
      await access.require(actor, AUDIT.read, inWorkspace(workspaceId));
      const days = await auditRepo.retention(db, workspaceId);
      if (days === undefined) throw notFound("Workspace not found.");
      return { retention_days: days };
    },

    async saveSettings(actor: UserActor, workspaceId: string, body: AuditSettings): Promise<AuditSettings> {
      await access.require(actor, AUDIT.read, inWorkspace(workspaceId));
      await auditRepo.setRetention(db, workspaceId, body.retention_days);
      return body;
    },

    async assetHistory(
      actor: UserActor,
      workspaceId: string,
      assetId: string,
      q: Pick<AuditQuery, "cursor" | "limit">,
    ) {
      // On the object itself: every member sees it (history is "view"); an outsider 404s.
      await access.require(actor, AUDIT.history, { kind: "asset", workspaceId, assetId });
      if (!(await historyRepo.assetIn(db, workspaceId, assetId))) throw notFound("Asset not found.");
      return page(await auditRepo.history(db, workspaceId, assetId, q.cursor ?? null, q.limit + 1), q.limit, false);
    },

    async boardHistory(
      actor: UserActor,
      workspaceId: string,
      boardId: string,
      q: Pick<AuditQuery, "cursor" | "limit">,
    ) {
      await access.require(actor, AUDIT.history, { kind: "board", workspaceId, boardId });
      if (!(await historyRepo.boardIn(db, workspaceId, boardId))) throw notFound("Board not found.");
      return page(await auditRepo.history(db, workspaceId, boardId, q.cursor ?? null, q.limit + 1), q.limit, false);
    },

    /** The daily purge: every row past its workspace's retention, in batches. */
    async purge(): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await auditRepo.purge(db);
        total += n;
        if (n === 0) return total;
      }
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;

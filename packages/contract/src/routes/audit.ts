import { z } from "zod";
import { AuditExportQuery, AuditPage, AuditQuery, AuditSettings, HistoryQuery } from "../audit.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "audit";
const access = "workspace";

/** The audit log (issue 36): ADMINs read and export the workspace's; members see an asset's or a board's history. */
export const auditApi = {
  list: defineRoute({
    method: "GET",
    path: "/workspaces/:id/audit",
    tag,
    summary: "The audit log, newest first, filtered by actor, action, object and time (ADMIN)",
    access,
    params: WorkspaceParams,
    query: AuditQuery,
    response: { 200: AuditPage },
  }),
  export: defineRoute({
    method: "GET",
    path: "/workspaces/:id/audit/export",
    tag,
    summary: "The audit log as CSV, with the same filters (ADMIN; the export is itself recorded)",
    access,
    params: WorkspaceParams,
    query: AuditExportQuery,
    answer: "bytes",
  }),
  settings: defineRoute({
    method: "GET",
    path: "/workspaces/:id/audit/settings",
    tag,
    summary: "How long the audit log is kept (ADMIN)",
    access,
    params: WorkspaceParams,
    response: { 200: AuditSettings },
  }),
  saveSettings: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/audit/settings",
    tag,
    summary: "Set how long the audit log is kept: 30 days to 10 years (ADMIN)",
    access,
    params: WorkspaceParams,
    body: AuditSettings,
    response: { 200: AuditSettings },
  }),
  assetHistory: defineRoute({
    method: "GET",
    path: "/workspaces/:id/assets/:assetId/history",
    summary: "What happened to one asset, newest first (members; without addresses)",
    access,
    tag: "history",
    params: z.object({ id: z.uuid(), assetId: z.uuid() }),
    query: HistoryQuery,
    response: { 200: AuditPage },
  }),
  boardHistory: defineRoute({
    method: "GET",
    path: "/workspaces/:id/boards/:boardId/history",
    summary: "What happened to one board, newest first (members; without addresses)",
    access,
    tag: "history",
    params: z.object({ id: z.uuid(), boardId: z.uuid() }),
    query: HistoryQuery,
    response: { 200: AuditPage },
  }),
};

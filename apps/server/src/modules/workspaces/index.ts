export { createWorkspacesService, type WorkspacesService, toWorkspace, WORKSPACE_RETENTION_DAYS } from "./service.ts";

export { createWorkspacesService, toWorkspace, WORKSPACE_RETENTION_DAYS, type WorkspacesService } from "./service.ts";

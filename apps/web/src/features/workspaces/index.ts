// The workspaces feature's public surface: its pages' routes and the delete dialog (settings). The
// workspace's queries, the current workspace and the selection store are in entities/workspace.
export { DeleteWorkspaceDialog } from "./dialogs/delete-workspace-dialog";
export { createWorkspaceRoute, workspaceHomeRoute, workspacesRedirectRoute } from "./routes";

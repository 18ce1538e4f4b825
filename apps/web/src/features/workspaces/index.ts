// The workspaces feature's public surface: what the router, the shell and other features may import.
export {
  forgetWorkspace,
  rememberWorkspace,
  switchWorkspace,
  useRenameWorkspace,
  useSelectWorkspace,
  useWorkspace,
  useWorkspaces,
  workspaceKeys,
} from "./api";
export { DeleteWorkspaceDialog } from "./dialogs/delete-workspace-dialog";
export { createWorkspaceRoute, workspaceHomeRoute, workspacesRedirectRoute } from "./routes";
export { selectionStore, useSelection } from "./selection-store";
export { useCurrentWorkspace, WorkspaceContext } from "./workspace-context";

// The workspace entity: its queries and the cache helpers around them, the workspace of the current
// route, and the selection store (open workspace, current board, selected assets and boards).
export {
  forgetWorkspace,
  rememberWorkspace,
  switchWorkspace,
  useCreateWorkspace,
  useDeleteWorkspace,
  useRenameWorkspace,
  useSelectWorkspace,
  useWorkspace,
  useWorkspaces,
  workspaceKeys,
} from "./api";
export { selectionStore, useSelection } from "./selection-store";
export { useCurrentWorkspace, WorkspaceContext } from "./workspace-context";

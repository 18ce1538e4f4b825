import type { Workspace } from "@hangar/contract";
import { createContext, useContext } from "react";

/** The workspace of the current /w/:workspaceId route, loaded by WorkspaceLayout. */
export const WorkspaceContext = createContext<Workspace | null>(null);

export function useCurrentWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error("useCurrentWorkspace() used outside a /w/:workspaceId route");
  return workspace;
}

import { canEdit } from "@hangar/contract";
import { useContext } from "react";
import { useWorkspace, WorkspaceContext } from "../../../entities/workspace";

/**
 * What the caller may do with assets (spec 01 §6): everyone may favourite and download; only ADMIN
 * and EDITOR may edit (tags, rename, boards, move, delete). The role comes from the current
 * workspace, or is fetched when the component sits outside it.
 */
export function useAssetPermissions(workspaceId: string) {
  const current = useContext(WorkspaceContext);
  const inContext = current?.id === workspaceId;
  const fetched = useWorkspace(inContext ? undefined : workspaceId);
  const role = inContext ? current.user_role : fetched.data?.user_role;
  return { role: role ?? null, canEdit: canEdit(role), canFavorite: !!role, canDownload: !!role };
}

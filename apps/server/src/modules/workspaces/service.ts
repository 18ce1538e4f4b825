import type { Workspace } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace, memberGrant } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { notFound } from "../../platform/errors.ts";
import { WORKSPACE, workspaceAbilities } from "./policy.ts";
import { type WorkspaceWithRole, workspacesRepo } from "./repo.ts";

export const WORKSPACE_RETENTION_DAYS = 30;

export function toWorkspace(w: WorkspaceWithRole): Workspace {
  return {
    id: w.id,
    name: w.name,
    user_role: w.user_role,
    abilities: workspaceAbilities(memberGrant(w.id, w.user_role)),
    created_at: w.created_at.toISOString(),
    member_count: w.member_count,
  };
}

export function createWorkspacesService(deps: { db: Db; access: Access }) {
  const { db, access } = deps;

  async function get(actor: UserActor, id: string): Promise<Workspace> {
    await access.require(actor, WORKSPACE.view, inWorkspace(id));
    const w = await workspacesRepo.getForUser(db, id, actor.userId);
    if (!w) throw notFound("Workspace not found.");
    return toWorkspace(w);
  }

  return {
    get,
    /** Workspaces deleted longer ago than their retention go for good (jobs/purge-workspaces.ts). */
    purgeExpired: () =>
      workspacesRepo.purgeDeletedBefore(db, new Date(Date.now() - WORKSPACE_RETENTION_DAYS * 86_400_000)),
    async list(actor: UserActor): Promise<Workspace[]> {
      return (await workspacesRepo.listForUser(db, actor.userId)).map(toWorkspace);
    },
    async create(actor: UserActor, name: string): Promise<Workspace> {
      const id = await workspacesRepo.insertWithAdmin(db, name, actor.userId);
      return get(actor, id);
    },
    async rename(actor: UserActor, id: string, name: string): Promise<Workspace> {
      await access.require(actor, WORKSPACE.rename, inWorkspace(id));
      await workspacesRepo.rename(db, id, name);
      return get(actor, id);
    },
    async remove(actor: UserActor, id: string): Promise<void> {
      await access.require(actor, WORKSPACE.delete, inWorkspace(id));
      await workspacesRepo.softDelete(db, id, actor.userId);
    },
    async restore(actor: UserActor, id: string): Promise<Workspace> {
      if (!(await workspacesRepo.restore(db, id, actor.userId))) throw notFound("Workspace not found.");
      return get(actor, id);
    },
    /** Used by the demo seed and by tests' factories. */
    createFor: (userId: string, name: string) => workspacesRepo.insertWithAdmin(db, name, userId),
  };
}
export type WorkspacesService = ReturnType<typeof createWorkspacesService>;

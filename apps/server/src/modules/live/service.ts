import { type Access, inWorkspace } from "../../platform/access.ts";
import type { Actor, UserActor } from "../../platform/actor.ts";
import { AppError } from "../../platform/errors.ts";
import { LIVE } from "./policy.ts";

/** Who may follow a workspace's live events: asked of the access layer when a stream opens and while it lasts. */
export function createLiveService(deps: { access: Access }) {
  const { access } = deps;
  return {
    /** The member following the stream; anyone else 404 (as the session hook already answered them). */
    async admit(actor: Actor, workspaceId: string): Promise<UserActor> {
      const user = access.requireUser(actor);
      await access.require(user, LIVE.stream, inWorkspace(workspaceId));
      return user;
    },
    /**
     * Whether the stream's member may still follow it (its heartbeat asks): asked as a new caller each
     * time, since the access layer keeps a caller's answer for the rest of its request and a stream is
     * one request that lasts. A refusal (removed, the workspace deleted) says no; a failure to ask
     * (the database away a moment) keeps the stream open.
     */
    async stillAdmitted(user: UserActor, workspaceId: string): Promise<boolean> {
      try {
        await access.require({ ...user }, LIVE.stream, inWorkspace(workspaceId));
        return true;
      } catch (err) {
        return !(err instanceof AppError && (err.code === "NOT_FOUND" || err.code === "FORBIDDEN"));
      }
    },
  };
}
export type LiveService = ReturnType<typeof createLiveService>;

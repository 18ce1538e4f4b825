import { action } from "../../platform/policy.ts";

/**
 * Following a workspace's live events (ids of what changed, docs/architecture.md §9): every member, any role.
 * Share-link visitors have no stream (their pages poll), so the action lets no visitor.
 */
export const LIVE = {
  stream: action("live.stream", "view"),
};

import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

export const eventsApi = {
  /**
   * Live changes of a workspace as Server-Sent Events (`LiveEvent` in comments.ts; the event name is its
   * `type`), for the session's member. Ids only: clients refetch what they show. A comment line every
   * 20 s keeps proxies from closing it; EventSource reconnects by itself.
   */
  stream: defineRoute({
    method: "GET",
    path: "/workspaces/:id/events",
    summary: "Live changes in a workspace, as Server-Sent Events",
    tag: "events",
    access: "workspace",
    params: WorkspaceParams,
    answer: "stream",
  }),
};

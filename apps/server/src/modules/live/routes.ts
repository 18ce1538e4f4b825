import { eventsApi } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import type { LiveHub } from "../../platform/live-events.ts";
import { addRoute } from "../../platform/register-route.ts";

/**
 * `GET /workspaces/{id}/events`: the workspace's live events as Server-Sent Events. The session hook
 * has already checked that the caller is a member (access "workspace"). A removed member's stream
 * ends when the removal commits (the hub hears it); the heartbeat checks the membership again in
 * case that notice was missed (a lost listener connection). A session's streams are capped in the hub.
 */
export function liveRoutes(
  app: App,
  deps: { hub: LiveHub; heartbeatMs: number; stillMember: (userId: string, ws: string) => Promise<boolean> },
) {
  // Streams never end by themselves: a closing server ends them so it is not kept waiting.
  const open = new Set<import("node:http").ServerResponse>();
  app.addHook("preClose", async () => {
    for (const res of open) res.end();
  });
  addRoute(app, eventsApi.stream, async (req, reply) => {
    const ws = req.params.id;
    const userId = req.actor.kind === "user" ? req.actor.userId : null;
    const sessionId = req.actor.kind === "user" ? req.actor.sessionId : null;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });
    // How long EventSource waits before reconnecting.
    res.write("retry: 3000\n\n");
    const send = (type: string, data: unknown) => {
      if (!res.writableEnded) res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const unsubscribe = deps.hub.subscribe({
      workspaceId: ws,
      userId,
      sessionId,
      onEvent: (event) => send(event.type, event),
      onResync: () => send("resync", {}),
      end: () => res.end(),
    });
    const beat = setInterval(async () => {
      if (userId && !(await deps.stillMember(userId, ws).catch(() => true))) {
        res.end();
        return;
      }
      if (!res.writableEnded) res.write(": keep-alive\n\n");
    }, deps.heartbeatMs);
    open.add(res);
    const done = () => {
      clearInterval(beat);
      unsubscribe();
      open.delete(res);
    };
    // Registered before any wait, so a stream ended meanwhile (cap, removal) is let go all the same.
    req.raw.on("close", done);
    res.on("close", done);
    // "ready" once changes are being heard (the hub's LISTEN is in place), so nothing after it is missed.
    await Promise.race([deps.hub.ready(), new Promise((r) => setTimeout(r, 5_000))]);
    // A removal that committed between the session hook's check and the subscription was not heard.
    if (userId && !(await deps.stillMember(userId, ws).catch(() => true))) res.end();
    send("ready", {});
    return reply;
  });
}

import { eventsApi } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import type { LiveHub } from "../../platform/live-events.ts";
import { addRoute } from "../../platform/register-route.ts";
import type { LiveService } from "./service.ts";

/**
 * `GET /workspaces/{id}/events`: the workspace's live events as Server-Sent Events, for a member the
 * access layer admits (policy.ts). A removed member's stream ends when the removal commits (the hub
 * hears it); the heartbeat asks the access layer again in case that notice was missed (a lost
 * listener connection). A session's streams are capped in the hub.
 */
export function liveRoutes(app: App, deps: { hub: LiveHub; heartbeatMs: number; live: LiveService }) {
  // Streams never end by themselves: a closing server ends them so it is not kept waiting.
  const open = new Set<import("node:http").ServerResponse>();
  app.addHook("preClose", async () => {
    for (const res of open) res.end();
  });
  addRoute(app, eventsApi.stream, async (req, reply) => {
    const ws = req.params.id;
    const user = await deps.live.admit(req.actor, ws);
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
      userId: user.userId,
      sessionId: user.sessionId,
      onEvent: (event) => send(event.type, event),
      onResync: () => send("resync", {}),
      end: () => res.end(),
    });
    const beat = setInterval(async () => {
      if (!(await deps.live.stillAdmitted(user, ws))) {
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
    if (!(await deps.live.stillAdmitted(user, ws))) res.end();
    send("ready", {});
    return reply;
  });
}

import { eventsApi } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import type { LiveHub } from "../../platform/live-events.ts";
import { addRoute } from "../../platform/register-route.ts";

const HEARTBEAT_MS = 20_000;

/**
 * `GET /workspaces/{id}/events`: the workspace's live events as Server-Sent Events. The session hook
 * has already checked that the caller is a member (access "workspace"); a removed member's stream
 * ends at the next heartbeat, when the membership is checked again.
 */
export function liveRoutes(
  app: App,
  deps: { hub: LiveHub; stillMember: (userId: string, ws: string) => Promise<boolean> },
) {
  // Streams never end by themselves: a closing server ends them so it is not kept waiting.
  const open = new Set<import("node:http").ServerResponse>();
  app.addHook("preClose", async () => {
    for (const res of open) res.end();
  });
  addRoute(app, eventsApi.stream, async (req, reply) => {
    const ws = req.params.id;
    const userId = req.actor.kind === "user" ? req.actor.userId : null;
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
    const unsubscribe = deps.hub.subscribe(
      ws,
      (event) => send(event.type, event),
      () => send("resync", {}),
    );
    // "ready" once changes are being heard (the hub's LISTEN is in place), so nothing after it is missed.
    await Promise.race([deps.hub.ready(), new Promise((r) => setTimeout(r, 5_000))]);
    send("ready", {});
    const beat = setInterval(async () => {
      if (userId && !(await deps.stillMember(userId, ws).catch(() => true))) {
        res.end();
        return;
      }
      if (!res.writableEnded) res.write(": keep-alive\n\n");
    }, HEARTBEAT_MS);
    open.add(res);
    const done = () => {
      clearInterval(beat);
      unsubscribe();
      open.delete(res);
    };
    req.raw.on("close", done);
    res.on("close", done);
    return reply;
  });
}

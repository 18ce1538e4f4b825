import { randomUUID } from "node:crypto";
import type { FileRequest, WebhookWithSecret } from "@hangar/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  createTestEnv,
  putBytes,
  type TestEnv,
  testStorage,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";
import { png, uploadWith } from "../../../test/versions.ts";
import { verifySignature } from "./index.ts";
import { type Hit, type Receiver, until, webhookReceiver } from "./receiver.fixture.ts";

/**
 * Real events end to end (issue 36): a change's trigger writes the outbox in its transaction, a worker
 * dispatches it (the object as the API answers it) and delivers it, signed, to a real receiver.
 */
let env: TestEnv;
let rec: Receiver;
beforeAll(async () => {
  rec = await webhookReceiver();
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { ownDatabase: true });
});
afterAll(async () => {
  await env.close();
  await rec.close();
});
afterEach(() => rec.answerWith(() => ({ status: 200, body: "ok" })));

const ALL = [
  "asset.created",
  "asset.updated",
  "asset.deleted",
  "asset.version_added",
  "asset.processed",
  "comment.created",
  "comment.resolved",
  "review.decided",
  "review.completed",
  "share.created",
  "share.viewed",
  "upload_link.received",
  "member.added",
  "member.removed",
];

async function register(admin: Client, ws: string, path: string, events: string[]) {
  const res = await admin.post(`/workspaces/${ws}/webhooks`, { url: rec.url(path), events });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as WebhookWithSecret;
}
const bodyOf = (h: Hit) => JSON.parse(h.body);
/** Waits for a hit of this type about this object on the path. */
const hitFor = (path: string, type: string, objectId: string) =>
  until(() => rec.on(path).find((h) => h.type === type && h.objectId === objectId));

describe("webhook events", () => {
  it("sends each event asked for, signed, with the object as the API answers it, in order per object", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const hook = await register(c, ws.id, "/events", ALL);
    const asset = await uploadBytes(c, ws.id, "first.png", await png("rgb(12, 34, 56)"));
    await waitForAsset(c, ws.id, asset);
    await hitFor("/events", "asset.processed", asset);

    expect((await c.put(`/workspaces/${ws.id}/assets/${asset}`, { name: "renamed.png" })).statusCode).toBe(200);
    const renamed = await hitFor("/events", "asset.updated", asset);
    const answer = (await c.get(`/workspaces/${ws.id}/assets/${asset}`)).json();
    const object = bodyOf(renamed).data.object;
    expect(Object.keys(object).sort()).toEqual(Object.keys(answer).sort());
    expect(object).toMatchObject({ id: asset, name: "renamed.png", status: "COMPLETED", workspace_id: ws.id });

    const comment = (
      await c.post(`/workspaces/${ws.id}/comments`, { content_type: "asset", object_id: asset, text: "Crop it" })
    ).json();
    const created = bodyOf(await hitFor("/events", "comment.created", comment.id));
    expect(created.data.object).toEqual((await c.get(`/workspaces/${ws.id}/comments/${comment.id}`)).json());
    await c.post(`/workspaces/${ws.id}/comments/${comment.id}/resolve`, { resolved: true });
    const resolved = bodyOf(await hitFor("/events", "comment.resolved", comment.id));
    expect(resolved.data.object.resolved).toBe(true);

    const v = await uploadWith(c, ws.id, { name: "second.png", version_of: asset }, await png("rgb(200, 10, 10)"));
    const added = bodyOf(await hitFor("/events", "asset.version_added", asset));
    expect(added.data).toMatchObject({ version_id: v.version_id, version_number: 2 });
    await until(() =>
      rec.on("/events").find((h) => h.type === "asset.processed" && bodyOf(h).data.version_id === v.version_id),
    );

    // A member joins and leaves; a board is shared and its link opened.
    const joiner = await workspaceWith(env).then((w) => w.admin);
    await env.rt.db
      .insertInto("memberships")
      .values({ workspace_id: ws.id, user_id: joiner.user.id, role: "EDITOR" })
      .execute();
    const joined = bodyOf(await hitFor("/events", "member.added", joiner.user.id));
    expect(joined.data.object).toMatchObject({ user_id: joiner.user.id, email: joiner.email, role: "EDITOR" });
    expect((await c.del(`/workspaces/${ws.id}/members/${joiner.user.id}`)).statusCode).toBe(200);
    const left = bodyOf(await hitFor("/events", "member.removed", joiner.user.id));
    expect(left.data.object).toMatchObject({ user_id: joiner.user.id, email: joiner.email, role: "EDITOR" });

    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Inbox" })).json().id as string;
    const link = (await c.get(`/workspaces/${ws.id}/share/board/${board}`)).json();
    expect(bodyOf(await hitFor("/events", "share.created", link.id)).data.object).toMatchObject({
      id: link.id,
      token: link.token,
    });
    expect((await new Client(env.app).get(`/share/${link.token}`)).statusCode).toBe(200);
    const viewed = bodyOf(await hitFor("/events", "share.viewed", link.id));
    expect(viewed.data.object.activity).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "open" })]));

    // A file arrives through a request-files link.
    const request = (await c.post(`/workspaces/${ws.id}/boards/${board}/file-requests`, {})).json() as FileRequest;
    const sent = await sendThroughLink(request.token, await png("rgb(1, 99, 1)"));
    const received = bodyOf(await hitFor("/events", "upload_link.received", sent));
    expect(received.data.upload_link).toMatchObject({ id: request.id, board_id: board });
    expect(received.data.object).toMatchObject({ id: sent });

    // A review of one stage: its one decision completes it.
    const made = await c.post(`/workspaces/${ws.id}/reviews`, {
      title: "Cover",
      asset_ids: [asset],
      stages: [{ reviewers: [admin.user.id] }],
    });
    expect(made.statusCode, made.body).toBe(201);
    const review = made.json() as { id: string };
    const decision1 = await c.post(`/workspaces/${ws.id}/reviews/${review.id}/decisions`, {
      asset_id: asset,
      decision: "approved",
    });
    expect(decision1.statusCode, decision1.body).toBe(201);
    const decision = bodyOf(await hitFor("/events", "review.decided", review.id));
    expect(decision.data.decision).toMatchObject({ asset_id: asset, decision: "approved" });
    expect(decision.data.object).toMatchObject({ id: review.id, title: "Cover" });
    const completed = bodyOf(await hitFor("/events", "review.completed", review.id));
    expect(completed.data.object.state).toBe("approved");

    expect((await c.del(`/workspaces/${ws.id}/assets`, { asset_ids: [asset] })).statusCode).toBe(200);
    const deleted = bodyOf(await hitFor("/events", "asset.deleted", asset));
    expect(deleted.data.object).toMatchObject({ id: asset, name: "renamed.png" });

    // One object's events arrived in the order they happened, and every delivery is signed.
    const mine = rec.on("/events").filter((h) => bodyOf(h).workspace_id === ws.id);
    expect(mine.filter((h) => h.objectId === asset).map((h) => h.type)).toEqual([
      "asset.created",
      "asset.processed",
      "asset.updated",
      "asset.version_added",
      "asset.processed",
      "asset.deleted",
    ]);
    for (const h of mine)
      expect(verifySignature(hook.secret, String(h.headers["hangar-signature"]), h.body)).toBe(true);
    expect(new Set(mine.map((h) => h.type))).toEqual(new Set(ALL));
    expect(new Set(mine.map((h) => bodyOf(h).id)).size).toBe(mine.length);
  }, 90_000); // two uploads processed and a dozen changes, each waited for at the receiver

  it("sends an endpoint only the events it asked for, and nothing while it is disabled", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const comments = await register(c, ws.id, "/only-comments", ["comment.created"]);
    const off = await register(c, ws.id, "/off", ["comment.created", "asset.created"]);
    await c.patch(`/workspaces/${ws.id}/webhooks/${off.id}`, { enabled: false });
    const asset = await uploadBytes(c, ws.id, "one.png", await png("rgb(90, 90, 9)"));
    await waitForAsset(c, ws.id, asset);
    const comment = (
      await c.post(`/workspaces/${ws.id}/comments`, { content_type: "asset", object_id: asset, text: "Hi" })
    ).json();
    await hitFor("/only-comments", "comment.created", comment.id);
    // The outbox is empty once this workspace's events are dispatched: nothing else was (or will be) sent.
    await until(async () => {
      const left = await env.rt.db
        .selectFrom("webhook_events")
        .select("id")
        .where("workspace_id", "=", ws.id)
        .where("dispatched_at", "is", null)
        .execute();
      return left.length === 0;
    });
    expect(rec.on("/only-comments").map((h) => h.type)).toEqual(["comment.created"]);
    expect(rec.on("/off")).toEqual([]);
    const log = (await c.get(`/workspaces/${ws.id}/webhooks/${comments.id}/deliveries`)).json();
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({
      type: "comment.created",
      status: "delivered",
      response_status: 200,
      attempts: 1,
    });
  });

  it("lets an asset and a workspace be deleted for good: cascades pass the triggers, the outbox empties", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const hook = await register(c, ws.id, "/purged", ALL);
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "B" })).json().id as string;
    const asset = await uploadBytes(c, ws.id, "gone.png", await png("rgb(7, 70, 170)"), board);
    await waitForAsset(c, ws.id, asset);
    await c.post(`/workspaces/${ws.id}/assets/tags`, { asset_ids: [asset], tags: ["x"] });
    await hitFor("/purged", "asset.updated", asset);
    // Purged: its tags and placements go by cascade (statement triggers see no live asset).
    await env.rt.db.deleteFrom("assets").where("id", "=", asset).execute();
    // The workspace itself: its memberships go by cascade while its endpoints do.
    await env.rt.db.deleteFrom("workspaces").where("id", "=", ws.id).execute();
    expect(await env.rt.db.selectFrom("webhook_endpoints").select("id").where("id", "=", hook.id).execute()).toEqual(
      [],
    );
    expect(
      await env.rt.db.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", hook.id).execute(),
    ).toEqual([]);
    await env.rt.webhooks.sweep();
    const left = await env.rt.db
      .selectFrom("webhook_events")
      .select("type")
      .where("workspace_id", "=", ws.id)
      .where("dispatched_at", "is", null)
      .execute();
    expect(left).toEqual([]);
  });
});

/** A visitor sends a file through a request-files link (direct upload): the asset's id. */
async function sendThroughLink(token: string, data: Buffer): Promise<string> {
  const v = new Client(env.app);
  const headers = { "x-request-visit": randomUUID() };
  const init = await v.request(
    "POST",
    `/request/${token}/upload`,
    { name: "sent.png", size: data.length },
    { headers },
  );
  expect(init.statusCode, init.body).toBe(200);
  const put = await putBytes(env.app, init.json().direct_url, data);
  expect(put.statusCode, put.body).toBe(200);
  if (testStorage === "s3") {
    const { upload_id, key } = init.json();
    const parts = [{ part_number: 1, etag: put.headers.etag }];
    const done = await v.request("POST", `/request/${token}/upload/complete`, { upload_id, key, parts }, { headers });
    expect(done.statusCode, done.body).toBe(200);
  }
  return init.json().asset_id as string;
}

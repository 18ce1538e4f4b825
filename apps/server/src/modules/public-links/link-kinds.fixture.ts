import type { Review } from "@hangar/contract";
import { expect } from "vitest";
import { type Client, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { REQUEST_LINKS } from "../file-requests/index.ts";
import { REVIEW_LINKS } from "../reviews/index.ts";
import { SHARE_LINKS } from "../shares/index.ts";
import type { GatedLink, LinkKind } from "./kind.ts";

/** What a member changes of a link's gate (each kind's settings route takes these). */
export type GateChange = { password?: string | null; is_active?: boolean; expires_at?: string | null };

/** A link made through the members' API: its id and token, and how to change its gate. */
export interface MadeLink {
  id: string;
  token: string;
  set(change: GateChange): Promise<void>;
}

/** Each kind of public link, made the way members make it: the gate's tests run once per kind. */
export interface KindCase {
  kind: LinkKind<GatedLink, unknown>;
  make(password?: string): Promise<MadeLink>;
  /** The actor a visitor of `link` acts as (what the kind grants). */
  visitorOf(link: MadeLink): unknown;
}

const ok = async (res: Promise<{ statusCode: number; body: string }>, status = 200) => {
  const r = await res;
  if (r.statusCode !== status) throw new Error(`${r.statusCode}: ${r.body}`);
};

/** Every kind of public link the server has (public-links.test.ts checks the runtime has no other). */
export const KIND_NAMES = ["share", "request", "review"] as const;
export type KindName = (typeof KIND_NAMES)[number];

export async function linkKinds(env: TestEnv): Promise<Record<KindName, KindCase>> {
  const w = await workspaceWith(env);
  const ws = w.ws.id as string;
  const c: Client = w.admin.client;
  const adminId = w.admin.user.id;
  const newBoard = async () => (await c.post(`/workspaces/${ws}/boards`, { name: "Links" })).json().id as string;
  return {
    share: {
      kind: SHARE_LINKS as LinkKind<GatedLink, unknown>,
      async make(password) {
        const board = await newBoard();
        const set = (change: GateChange) => ok(c.put(`/workspaces/${ws}/share/board/${board}`, change));
        const link = (await c.get(`/workspaces/${ws}/share/board/${board}`)).json() as { id: string; token: string };
        if (password) await set({ password });
        return { id: link.id, token: link.token, set };
      },
      visitorOf: (link) =>
        expect.objectContaining({ kind: "visitor", linkId: link.id, workspaceId: ws, unlocked: true }),
    },
    request: {
      kind: REQUEST_LINKS as LinkKind<GatedLink, unknown>,
      async make(password) {
        const board = await newBoard();
        const res = await c.post(`/workspaces/${ws}/boards/${board}/file-requests`, password ? { password } : {});
        const link = res.json() as { id: string; token: string };
        const set = (change: GateChange) => ok(c.patch(`/workspaces/${ws}/file-requests/${link.id}`, change));
        return { id: link.id, token: link.token, set };
      },
      visitorOf: () => ({ kind: "on-behalf", userId: adminId }),
    },
    review: {
      kind: REVIEW_LINKS as LinkKind<GatedLink, unknown>,
      async make(password) {
        // An outside reviewer's personal link on a review of one (uploaded, unprocessed) asset.
        const init = await c.post(`/workspaces/${ws}/assets/upload`, { name: "review.png", size: 10 });
        const asset = init.json().asset_id as string;
        await env.rt.db.updateTable("assets").set({ is_temp: false }).where("id", "=", asset).execute();
        const email = `guest-${Math.random().toString(36).slice(2, 10)}@example.test`;
        const res = await c.post(`/workspaces/${ws}/reviews`, {
          title: "Links",
          asset_ids: [asset],
          stages: [{ reviewers: [password ? { email, password } : email] }],
        });
        if (res.statusCode !== 201) throw new Error(`${res.statusCode}: ${res.body}`);
        const who = (res.json() as Review).stages[0]!.reviewers[0]!;
        const set = (change: GateChange) =>
          ok(c.patch(`/workspaces/${ws}/reviews/${res.json().id}/reviewers/${who.id}`, change));
        return { id: who.id, token: who.link!.token, set };
      },
      visitorOf: (link) =>
        expect.objectContaining({
          kind: "visitor",
          linkId: link.id,
          workspaceId: ws,
          unlocked: true,
          content: expect.objectContaining({ kind: "review" }),
        }),
    },
  };
}

import type { CreateReviewBody, Review, ReviewDecisionBody, Role } from "@hangar/contract";
import { expect } from "vitest";
import { type Client, signedInUser, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { newVersion, png, processedAsset } from "../../../test/versions.ts";

type Member = Awaited<ReturnType<typeof signedInUser>>;

/** A workspace with an ADMIN and named members of the given roles (each their own client). */
export async function team<const N extends string>(env: TestEnv, roles: Record<N, Role>) {
  const w = await workspaceWith(env);
  const m = {} as Record<N, Member>;
  for (const [name, role] of Object.entries(roles) as Array<[N, Role]>) {
    const member = await signedInUser(env, { first_name: name });
    await env.rt.db
      .insertInto("memberships")
      .values({ workspace_id: w.ws.id, user_id: member.user.id, role })
      .execute();
    m[name] = member;
  }
  return { ws: w.ws.id, admin: w.admin, m };
}

let colour = 0;
/** Processed image assets (an env without workers: the pipeline runs here), each of its own bytes. */
export async function images(env: TestEnv, client: Client, ws: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    colour = (colour + 37) % 256;
    ids.push(await processedAsset(env, client, ws, `image-${colour}.png`, await png(`rgb(${colour}, 120, 60)`)));
  }
  return ids;
}

/** A new version of an asset, processed (it becomes current). */
export async function versionOf(env: TestEnv, client: Client, ws: string, assetId: string) {
  colour = (colour + 53) % 256;
  return newVersion(env, client, ws, assetId, "next.png", await png(`rgb(40, ${colour}, 200)`));
}

export async function createReview(client: Client, ws: string, body: CreateReviewBody): Promise<Review> {
  const res = await client.post(`/workspaces/${ws}/reviews`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Review;
}

export const getReview = async (client: Client, ws: string, id: string): Promise<Review> => {
  const res = await client.get(`/workspaces/${ws}/reviews/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Review;
};

export const decide = (client: Client, ws: string, reviewId: string, body: ReviewDecisionBody) =>
  client.post(`/workspaces/${ws}/reviews/${reviewId}/decisions`, body);

/** Decides and expects it to be taken: the review's answer after it. */
export async function decided(client: Client, ws: string, reviewId: string, body: ReviewDecisionBody): Promise<Review> {
  const res = await decide(client, ws, reviewId, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Review;
}

/** Each asset's status in the review, in its order. */
export const statuses = (r: Review) => r.assets.map((a) => a.status);

/** The token of an outside reviewer's link, as the requester sees it. */
export function linkOf(r: Review, email: string): { id: string; token: string } {
  const who = r.stages.flatMap((s) => s.reviewers).find((x) => x.email === email);
  if (!who?.link) throw new Error(`no link for ${email}`);
  return { id: who.id, token: who.link.token };
}

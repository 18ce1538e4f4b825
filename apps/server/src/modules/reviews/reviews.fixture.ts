import type { CreateReviewBody, Review, ReviewDecisionBody } from "@hangar/contract";
import { expect } from "vitest";
import type { Client, TestEnv } from "../../../test/harness.ts";
import { newVersion, png } from "../../../test/versions.ts";

export { images, team } from "../../../test/team.ts";

let colour = 0;

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

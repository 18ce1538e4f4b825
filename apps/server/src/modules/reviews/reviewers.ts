import { randomUUID } from "node:crypto";
import { REVIEW_MESSAGES, type StageInput } from "@hangar/contract";
import type { Insertable } from "kysely";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import type { ReviewReviewersTable } from "../../db/types-reviews.ts";
import { invalid } from "../../platform/errors.ts";
import { gateOnCreate, newLinkToken } from "../public-links/index.ts";
import { reviewsRepo } from "./repo.ts";

type Stage = z.output<typeof StageInput>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A reviewer as the request names them, resolved: a member, or an outsider with their link's gate. */
export interface Named {
  /** Who they are, whatever stage: `u:<user id>` or `e:<address>`. */
  key: string;
  stage: number;
  /** Its place in the stage, as the request lists them. */
  position: number;
  userId: string | null;
  email: string | null;
  name: string;
  password?: string;
  expiresAt?: string;
}

export interface ResolvedStage {
  rule: "all" | "any";
  reviewers: Named[];
}

/**
 * The stages' reviewers as people: a user id must be a member's (422 naming the field); an address
 * that is a member's is that member; any other address is an outsider. One person is a reviewer in
 * one stage only (422); named twice in a stage, once.
 */
export async function resolveStages(db: Db, workspaceId: string, stages: Stage[]): Promise<ResolvedStage[]> {
  const ids = new Set<string>();
  const emails = new Set<string>();
  for (const s of stages)
    for (const r of s.reviewers) {
      if (typeof r === "string") (UUID.test(r) ? ids : emails).add(r.toLowerCase());
      else if ("user_id" in r) ids.add(r.user_id);
      else emails.add(r.email);
    }
  const members = await reviewsRepo.members(db, workspaceId, [...ids], [...emails]);
  const byId = new Map(members.map((m) => [m.id, m]));
  const byEmail = new Map(members.map((m) => [m.email.toLowerCase(), m]));
  const seen = new Map<string, number>();
  return stages.map((s, i) => {
    const out: Named[] = [];
    s.reviewers.forEach((r, j) => {
      const field = `stages.${i}.reviewers.${j}`;
      const userId =
        typeof r === "string" ? (UUID.test(r) ? r.toLowerCase() : null) : "user_id" in r ? r.user_id : null;
      const email = typeof r === "string" ? (UUID.test(r) ? null : r) : "email" in r ? r.email : null;
      const member = userId ? byId.get(userId) : email ? byEmail.get(email) : undefined;
      if (userId && !member) throw invalid(REVIEW_MESSAGES.notMember, [{ field, message: REVIEW_MESSAGES.notMember }]);
      const named: Named = member
        ? {
            key: `u:${member.id}`,
            stage: i,
            position: out.length,
            userId: member.id,
            email: null,
            name: `${member.first_name ?? ""} ${member.last_name ?? ""}`.trim() || member.email,
          }
        : {
            key: `e:${email}`,
            stage: i,
            position: out.length,
            userId: null,
            email,
            name: typeof r === "object" && "name" in r ? (r.name ?? "") : "",
            ...(typeof r === "object" && "password" in r && r.password ? { password: r.password } : {}),
            ...(typeof r === "object" && "expires_at" in r && r.expires_at ? { expiresAt: r.expires_at } : {}),
          };
      const stageSeen = seen.get(named.key);
      if (stageSeen === i) return;
      if (stageSeen !== undefined) {
        const who = named.email ?? named.name;
        throw invalid(REVIEW_MESSAGES.twoStages(who), [{ field, message: REVIEW_MESSAGES.twoStages(who) }]);
      }
      seen.set(named.key, i);
      out.push(named);
    });
    return { rule: s.rule, reviewers: out };
  });
}

/** The row of a new reviewer: an outsider gets their personal link (a token, and the gate asked for). */
export async function reviewerRow(
  n: Named,
  review: { id: string; workspace_id: string },
): Promise<Insertable<ReviewReviewersTable>> {
  const gate = n.userId ? null : await gateOnCreate({ password: n.password ?? null, expires_at: n.expiresAt ?? null });
  return {
    id: randomUUID(),
    review_id: review.id,
    workspace_id: review.workspace_id,
    stage: n.stage,
    position: n.position,
    user_id: n.userId,
    email: n.email,
    name: n.name,
    token: n.userId ? null : newLinkToken(),
    expires_at: gate?.expires_at ?? null,
    password_hash: gate?.password_hash ?? null,
  };
}

/** The identity key of a reviewer row (as `Named.key`). */
export const keyOf = (r: { user_id: string | null; email: string | null; id: string }) =>
  r.user_id ? `u:${r.user_id}` : r.email ? `e:${r.email}` : `x:${r.id}`;

import { formatBytes } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { AppError } from "../../platform/errors.ts";
import type { PlanBook, PlanDefinition } from "./plans.ts";
import { billingRepo, type SubscriptionRow } from "./repo.ts";

/**
 * Which plan's limits apply now: the subscribed plan while active or trialing, and while past due
 * until the grace date; the free plan otherwise. Nothing is ever deleted or hidden when a workspace
 * falls back: it only stops taking new uploads and members until it is under the limits again.
 */
export function effectivePlan(book: PlanBook, row: SubscriptionRow | undefined, now = new Date()): PlanDefinition {
  const subscribed = row?.plan_key ? book.get(row.plan_key) : undefined;
  if (!row || !subscribed) return book.free;
  if (row.status === "active" || row.status === "trialing") return subscribed;
  if (row.status === "past_due" && (!row.limits_until || row.limits_until > now)) return subscribed;
  return book.free;
}

export const planLimit = (detail: string) => new AppError("PLAN_LIMIT", detail);

/**
 * The limit checks, each run inside the caller's transaction after locking the workspace's billing
 * row, so concurrent actions of one workspace are counted one after another. With billing off they
 * do nothing at all (no lock, no query).
 */
export function createLimits(deps: { enabled: boolean; book: PlanBook }) {
  const { enabled, book } = deps;
  return {
    /** A new file of `bytes` (its asset row is inserted later in the same transaction). */
    async checkUpload(tx: Db, workspaceId: string, bytes: number) {
      if (!enabled) return;
      const plan = effectivePlan(book, await billingRepo.lock(tx, workspaceId));
      if (bytes > plan.limits.max_upload_bytes) {
        throw planLimit(
          `The ${plan.name} plan takes files up to ${formatBytes(plan.limits.max_upload_bytes)}; this one is ${formatBytes(bytes)}.`,
        );
      }
      const used = await billingRepo.storageBytes(tx, workspaceId);
      if (used + bytes > plan.limits.storage_bytes) {
        throw planLimit(
          `Storage limit reached: ${formatBytes(used)} of ${formatBytes(plan.limits.storage_bytes)} used on the ${plan.name} plan; this file needs ${formatBytes(bytes)} more.`,
        );
      }
    },
    /** An upload's completion: its bytes are already counted in the usage (reserved at its start). */
    async checkUploadComplete(tx: Db, workspaceId: string, bytes: number) {
      if (!enabled) return;
      const plan = effectivePlan(book, await billingRepo.lock(tx, workspaceId));
      if (bytes > plan.limits.max_upload_bytes) {
        throw planLimit(
          `The ${plan.name} plan takes files up to ${formatBytes(plan.limits.max_upload_bytes)}; this one is ${formatBytes(bytes)}.`,
        );
      }
      const used = await billingRepo.storageBytes(tx, workspaceId);
      if (used > plan.limits.storage_bytes) {
        throw planLimit(
          `Storage limit reached: ${formatBytes(used)} of ${formatBytes(plan.limits.storage_bytes)} used on the ${plan.name} plan.`,
        );
      }
    },
    /**
     * A seat is a member or a pending invitation. A new invitation takes one (a pending one for the
     * same address is replaced, so it does not count twice); accepting turns a pending invitation
     * into a member, which needs the members alone to stay within the seats (a workspace moved to a
     * smaller plan keeps its invitations but cannot grow past the limit through them).
     */
    async checkSeat(tx: Db, workspaceId: string, what: { invite: string } | "accept") {
      if (!enabled) return;
      const plan = effectivePlan(book, await billingRepo.lock(tx, workspaceId));
      const seats = plan.limits.seats;
      if (what === "accept") {
        const { members } = await billingRepo.seats(tx, workspaceId);
        if (members + 1 > seats) {
          throw planLimit(
            `Seat limit reached: ${members} of ${seats} seats are taken by members on the ${plan.name} plan.`,
          );
        }
        return;
      }
      const { members, pending } = await billingRepo.seats(tx, workspaceId, what.invite);
      if (members + pending + 1 > seats) {
        throw planLimit(
          `Seat limit reached: ${members + pending} of ${seats} seats used on the ${plan.name} plan (${members} members, ${pending} pending invitations).`,
        );
      }
    },
  };
}
export type Limits = ReturnType<typeof createLimits>;

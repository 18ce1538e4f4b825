import type { Comment } from "@hangar/contract";
import { useEffect, useRef } from "react";
import { type CommentScope, useOneComment } from "./api";
import type { Review } from "./review-context";

/**
 * Lands the drawer on the comment a mention's link names (`?comment=`, issue 35): shows the scope
 * it was made in, loads pages of threads until its thread is there, unfolds a resolved thread and a
 * reply's thread, then focuses it (its page, time and annotation) and highlights it; the item
 * scrolls itself into view. Once per target; a comment of another asset or not found does nothing.
 */
export function useCommentTarget(opts: {
  review: Review;
  threads: Comment[];
  scope: CommentScope;
  setScope(scope: CommentScope): void;
  top: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage(): unknown };
  showResolved(): void;
}): { expandThreadId: string | null } {
  const { review, threads, scope, setScope, top, showResolved } = opts;
  const one = useOneComment(review, review.targetId);
  const target = one.data && one.data.object_id === review.asset.id ? one.data : null;
  const landed = useRef<string | null>(null);
  const pending = target !== null && landed.current !== target.id;

  // Made in another board's context than the one shown: show every comment.
  const outOfScope =
    target !== null && scope !== "all" && (scope === "global" ? target.board_id !== null : target.board_id !== scope);
  useEffect(() => {
    if (pending && outOfScope) setScope("all");
  }, [pending, outOfScope, setScope]);

  const root = target ? threads.find((t) => t.id === target.thread_id) : undefined;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = top;
  useEffect(() => {
    if (pending && !outOfScope && !root && hasNextPage && !isFetchingNextPage) fetchNextPage();
  }, [pending, outOfScope, root, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const { focus } = review;
  useEffect(() => {
    if (!pending || outOfScope || !root || !target) return;
    landed.current = target.id;
    if (root.resolved) showResolved();
    focus(target, root);
  }, [pending, outOfScope, root, target, focus, showResolved]);

  return { expandThreadId: target && target.parent_id !== null ? target.thread_id : null };
}

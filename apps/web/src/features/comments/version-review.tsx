import type { Asset } from "@hangar/contract";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useTopComments } from "./api";
import { ReviewProvider, type SharedReview, useReview } from "./review-context";

/** Loads the version's threads into the review around it (what the drawer does in the viewer). */
function Threads() {
  const review = useReview()!;
  const top = useTopComments(review, "all");
  const threads = useMemo(() => top.data?.pages.flatMap((p) => p.results) ?? [], [top.data]);
  const { setThreads } = review;
  useEffect(() => setThreads(threads), [threads, setThreads]);
  return null;
}

/**
 * One version's annotations to look at (compare, issue 29): its threads from every board, drawn by
 * the AnnotationLayer inside; nothing can be drawn or written, markers open their popover.
 */
export function VersionReview(props: {
  workspaceId: string;
  /** The asset as this version shows it (versionView). */
  asset: Asset;
  version: { id: string; number: number } | null;
  page: number;
  /** A share link's visitor: the threads through the link. */
  shared?: SharedReview | null;
  children: ReactNode;
}) {
  const [visibleId, setVisibleId] = useState<string | null>(null);
  const escapeBusy = useRef(false);
  return (
    <ReviewProvider
      workspaceId={props.workspaceId}
      asset={props.asset}
      boardId={null}
      currentPage={props.page}
      goToPage={() => {}}
      visibleId={visibleId}
      setVisibleId={setVisibleId}
      escapeBusy={escapeBusy}
      version={props.version}
      shared={props.shared ?? null}
      readOnly
    >
      <Threads />
      {props.children}
    </ReviewProvider>
  );
}

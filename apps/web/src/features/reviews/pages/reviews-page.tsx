import { canAdmin, canEdit, type ReviewListQuery } from "@hangar/contract";
import { Pagination, Skeleton, Stack, Tabs } from "@mantine/core";
import { IconChecklist, IconInbox, IconSend } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import { useLiveReviews, useReviews } from "../../../entities/review";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { EmptyPanel } from "../../../ui/empty-panel";
import { ErrorState } from "../../../ui/error-state";
import { PageHeader } from "../../../ui/page-header";
import { ReviewRow } from "../components/review-row";

type Tab = "waiting" | "requested" | "all";

const QUERIES: Record<Tab, ReviewListQuery> = {
  waiting: { waiting_for: "me" },
  requested: { requested_by: "me" },
  all: {},
};

/** `?tab=` (absent: waiting for me); "all" is for admins only. */
export function readTab(value: string | null, admin: boolean): Tab {
  if (value === "requested") return "requested";
  if (value === "all" && admin) return "all";
  return "waiting";
}

/**
 * /w/:id/reviews — review requests: "Waiting for me" (the default), "Requested by me", and for
 * admins "All". Each row opens the review. The tab and page are in the address.
 */
export function ReviewsPage() {
  const workspace = useCurrentWorkspace();
  const admin = canAdmin(workspace.user_role);
  const [params, setParams] = useSearchParams();
  const tab = readTab(params.get("tab"), admin);
  const page = Math.max(1, Number(params.get("page")) || 1);
  useLiveReviews(workspace.id);

  const go = (next: Tab, nextPage = 1) =>
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        if (next === "waiting") out.delete("tab");
        else out.set("tab", next);
        if (nextPage > 1) out.set("page", String(nextPage));
        else out.delete("page");
        return out;
      },
      { replace: true },
    );

  const empty: Record<Tab, ReactNode> = {
    waiting: (
      <EmptyPanel
        testId="reviews-empty"
        icon={<IconInbox size={28} />}
        title="Nothing is waiting for you"
        description="When someone asks you to review assets, the request shows here."
      />
    ),
    requested: (
      <EmptyPanel
        testId="reviews-empty"
        icon={<IconSend size={28} />}
        title="You have not requested a review"
        description={
          canEdit(workspace.user_role)
            ? "Select assets and choose Request review… under More actions, or use a board's menu or the viewer."
            : "Editors and admins request reviews; the ones you are asked to review are under Waiting for me."
        }
      />
    ),
    all: (
      <EmptyPanel
        testId="reviews-empty"
        icon={<IconChecklist size={28} />}
        title="No reviews yet"
        description="Review requests of everyone in this workspace show here."
      />
    ),
  };

  return (
    <Stack gap="md" data-testid="reviews-page">
      <PageHeader title="Reviews" description="Approvals asked of reviewers, stage after stage." />
      <Tabs value={tab} onChange={(v) => go(readTab(v, admin))} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="waiting">Waiting for me</Tabs.Tab>
          <Tabs.Tab value="requested">Requested by me</Tabs.Tab>
          {admin && <Tabs.Tab value="all">All</Tabs.Tab>}
        </Tabs.List>
      </Tabs>
      <ReviewList
        key={tab}
        workspaceId={workspace.id}
        query={{ ...QUERIES[tab], page }}
        empty={empty[tab]}
        onPage={(p) => go(tab, p)}
      />
    </Stack>
  );
}

function ReviewList({
  workspaceId,
  query,
  empty,
  onPage,
}: {
  workspaceId: string;
  query: ReviewListQuery;
  empty: ReactNode;
  onPage(page: number): void;
}) {
  const list = useReviews(workspaceId, query);
  if (list.isPending) {
    return (
      <Stack gap="xs" role="status" aria-label="Loading reviews">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={68} radius="md" />
        ))}
      </Stack>
    );
  }
  if (list.isError) {
    return (
      <ErrorState
        title="Reviews unavailable"
        message={errorMessage(list.error, "Failed to fetch reviews")}
        onRetry={() => list.refetch()}
        retrying={list.isFetching}
      />
    );
  }
  const { data, pagination } = list.data;
  if (data.length === 0 && pagination.page === 1) return empty;
  return (
    <Stack gap="xs" data-testid="review-list" style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
      {data.map((review) => (
        <ReviewRow key={review.id} workspaceId={workspaceId} review={review} />
      ))}
      {pagination.total_pages > 1 && (
        <Pagination
          total={pagination.total_pages}
          value={pagination.page}
          onChange={onPage}
          size="sm"
          mt="xs"
          getControlProps={(control) => ({ "aria-label": `${control} page` })}
        />
      )}
    </Stack>
  );
}

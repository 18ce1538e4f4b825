import { canAdmin, canEdit, formatBytes } from "@hangar/contract";
import { Pagination, Skeleton, Stack, Text } from "@mantine/core";
import { IconCopyCheck } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { EmptyPanel } from "../../../ui/empty-panel";
import { ErrorState } from "../../../ui/error-state";
import { PageHeader } from "../../../ui/page-header";
import { DUPLICATE_MESSAGES, DUPLICATES_PAGE_SIZE, type GroupAction, useDuplicates, useResolveGroup } from "../api";
import { DistanceSetting } from "../components/distance-setting";
import { DuplicateGroupCard } from "../components/duplicate-group-card";

/**
 * /w/:id/duplicates (issue 32): groups of exact and near duplicates, largest first, a page at a time,
 * each side by side with what it takes; editors keep one, stack them or dismiss the group, ADMINs set
 * the near-duplicate distance. A COMMENTER looks only.
 */
export function DuplicatesPage() {
  const workspace = useCurrentWorkspace();
  const editable = canEdit(workspace.user_role);
  const [page, setPage] = useState(1);
  const list = useDuplicates(workspace.id, page);
  const resolve = useResolveGroup(workspace.id);
  const [running, setRunning] = useState<{ key: string; action: GroupAction } | null>(null);

  const total = list.data?.total_count ?? 0;
  const pages = Math.max(1, Math.ceil(total / DUPLICATES_PAGE_SIZE));
  // The last group of the last page resolved: show the page before it.
  useEffect(() => {
    if (list.data && list.data.data.length === 0 && page > 1) setPage(Math.min(page - 1, pages));
  }, [list.data, page, pages]);

  const header = (
    <PageHeader
      title="Duplicates"
      description="Files uploaded more than once and pictures that look alike. Keep one, stack them as versions, or dismiss a group."
    />
  );
  const settings = canAdmin(workspace.user_role) && list.data && (
    <DistanceSetting workspaceId={workspace.id} value={list.data.max_distance} />
  );

  if (list.isPending) {
    return (
      <>
        {header}
        <Stack gap="md" role="status" aria-label="Loading duplicates">
          {[0, 1].map((i) => (
            <Skeleton key={i} height={220} radius="lg" />
          ))}
        </Stack>
      </>
    );
  }
  if (list.isError) {
    return (
      <>
        {header}
        <ErrorState
          title={DUPLICATE_MESSAGES.loadFailed}
          message={errorMessage(list.error, DUPLICATE_MESSAGES.loadFailed)}
          onRetry={() => list.refetch()}
          retrying={list.isFetching}
        />
      </>
    );
  }
  const groups = list.data.data;
  if (groups.length === 0 && page === 1) {
    return (
      <>
        {header}
        <Stack gap="lg">
          {settings}
          <EmptyPanel
            testId="duplicates-empty"
            icon={<IconCopyCheck size={28} />}
            title="No duplicates found"
            description="No two assets are the same file or look alike. New uploads are checked as they are processed."
          />
        </Stack>
      </>
    );
  }

  const keyOf = (asset_ids: string[]) => asset_ids.join(",");
  const act = (group: (typeof groups)[number], action: GroupAction, keepId: string) => {
    const key = keyOf(group.asset_ids);
    setRunning({ key, action });
    resolve.mutate({ action, group, keepId }, { onSettled: () => setRunning(null) });
  };
  const reclaimable = groups.reduce((sum, g) => sum + g.reclaimable, 0);

  return (
    <>
      {header}
      <Stack gap="lg" data-testid="duplicates">
        {settings}
        <Text size="sm" c="dimmed" data-testid="duplicates-summary">
          {total} group{total === 1 ? "" : "s"}
          {reclaimable > 0 ? ` · up to ${formatBytes(reclaimable)} could be freed on this page` : ""}
        </Text>
        {!editable && (
          <Text size="sm" c="dimmed">
            Only admins and editors can resolve duplicates.
          </Text>
        )}
        {groups.map((group) => {
          const key = keyOf(group.asset_ids);
          const mine = running?.key === key ? running.action : null;
          return (
            <DuplicateGroupCard
              key={key}
              group={group}
              workspaceId={workspace.id}
              editable={editable}
              pending={mine}
              busy={running !== null && mine === null}
              onAction={(action, keepId) => act(group, action, keepId)}
            />
          );
        })}
        {pages > 1 && (
          <Pagination
            total={pages}
            value={page}
            onChange={(p) => {
              setPage(p);
              window.scrollTo({ top: 0 });
            }}
            size="sm"
            aria-label="Duplicate groups pages"
          />
        )}
      </Stack>
    </>
  );
}

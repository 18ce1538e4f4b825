import { canAdmin, STORE_MESSAGES } from "@hangar/contract";
import { Skeleton, Stack } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { Suspense, useEffect } from "react";
import { Outlet, useParams } from "react-router-dom";
import { switchWorkspace, useWorkspace, WorkspaceContext } from "../../entities/workspace";
import { PastDueBanner } from "../../features/billing";
import { SsoRequiredState } from "../../features/sso";
import { useAfterIdle } from "../../lib/after-idle";
import { errorMessage, isApiError } from "../../lib/api-client";
import { ErrorState } from "../../ui/error-state";
import { NotFoundState } from "../../ui/not-found-state";

/** Answers that mean "no such workspace for you": not a member, deleted, or not even an id. */
const isMissing = (error: unknown) => isApiError(error) && [400, 404, 422].includes(error.status);

/** Loads /w/:workspaceId, makes it the current workspace, and shows its pages (or why it cannot). */
export function WorkspaceLayout() {
  const { workspaceId = "" } = useParams();
  const queryClient = useQueryClient();
  const workspace = useWorkspace(workspaceId);
  const settled = useAfterIdle();

  // Arriving at another workspace by any route (switcher, link, typed URL) clears the old one's state.
  useEffect(() => {
    if (workspaceId) switchWorkspace(queryClient, workspaceId);
  }, [workspaceId, queryClient]);

  if (workspace.isPending) {
    return (
      <Stack gap="md" role="status" aria-label="Loading workspace">
        <Skeleton height={32} width={280} />
        <Skeleton height={16} width={360} />
        <Skeleton height={160} mt="md" />
      </Stack>
    );
  }
  if (workspace.isError) {
    // A workspace that requires single sign-on, opened with a password session (issue 36).
    if (isApiError(workspace.error) && workspace.error.code === "SSO_REQUIRED")
      return <SsoRequiredState message={workspace.error.detail} />;
    if (isMissing(workspace.error)) {
      return (
        <NotFoundState
          title="Workspace not found"
          description="This workspace does not exist, was deleted, or you are not a member of it."
          backTo="/w"
          backLabel="Go to your workspaces"
        />
      );
    }
    return (
      <ErrorState
        title="Workspace unavailable"
        message={errorMessage(workspace.error, STORE_MESSAGES.fetchWorkspace)}
        onRetry={() => workspace.refetch()}
        retrying={workspace.isFetching}
      />
    );
  }
  return (
    <WorkspaceContext.Provider value={workspace.data}>
      {/* A past-due notice can wait for the page to settle: it is not part of the first paint. */}
      {canAdmin(workspace.data.user_role) && settled && (
        <Suspense fallback={null}>
          <PastDueBanner workspaceId={workspace.data.id} />
        </Suspense>
      )}
      <Outlet />
    </WorkspaceContext.Provider>
  );
}

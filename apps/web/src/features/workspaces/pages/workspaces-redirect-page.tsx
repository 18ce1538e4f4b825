import { STORE_MESSAGES } from "@hangar/contract";
import { Center, Container } from "@mantine/core";
import { Navigate } from "react-router-dom";
import { selectionStore, useWorkspaces } from "../../../entities/workspace";
import { isApiError } from "../../../lib/api-client";
import { CenteredLoader } from "../../../ui/centered-loader";
import { ErrorState } from "../../../ui/error-state";

/** /w: open the last used workspace if it is still ours, else the first one, else create one. */
export function WorkspacesRedirectPage() {
  const workspaces = useWorkspaces();

  if (workspaces.isPending) return <CenteredLoader fullPage label="Opening your workspace…" />;
  if (workspaces.isError) {
    const message =
      isApiError(workspaces.error) && workspaces.error.code === "INVALID_RESPONSE"
        ? STORE_MESSAGES.invalidResponse
        : STORE_MESSAGES.fetchWorkspaces;
    return (
      <Center mih="100dvh">
        <Container size={480}>
          <ErrorState message={message} onRetry={() => workspaces.refetch()} retrying={workspaces.isFetching} />
        </Container>
      </Center>
    );
  }
  const last = selectionStore.getState().workspaceId;
  const target = workspaces.data.find((w) => w.id === last) ?? workspaces.data[0];
  return <Navigate to={target ? `/w/${target.id}` : "/w/new"} replace />;
}

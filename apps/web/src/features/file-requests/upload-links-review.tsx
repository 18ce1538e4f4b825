import { type FileRequestSummary, formatBytes } from "@hangar/contract";
import { Alert, Badge, Loader, Stack, Text, Title } from "@mantine/core";
import { IconInbox, IconTrash } from "@tabler/icons-react";
import {
  type LinkColumn,
  LinkMoment,
  type LinkRowActions,
  LinkSubject,
  LinksTable,
  publicLink,
} from "../../entities/public-link";
import { errorMessage, isApiError } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { EmptyPanel } from "../../ui/empty-panel";
import { useFileRequestMutations, useWorkspaceFileRequests } from "./api";
import { requestState } from "./request-state";

/**
 * Settings → Share links, below the share links (ADMIN): every upload link of the workspace with its
 * board, its state and what came in, to turn off or delete what should no longer take files.
 */
export function UploadLinksReview({ workspaceId }: { workspaceId: string }) {
  const links = useWorkspaceFileRequests(workspaceId);
  // The row's calls are per board; the hook reads the workspace from here.
  const useRowActions = (r: FileRequestSummary) => useUploadLinkActions(workspaceId, r);
  // The share links above already say when the caller is not an admin.
  if (isApiError(links.error) && links.error.status === 403) return null;
  return (
    <Stack gap="sm" mt="xl">
      <Title order={2} size="h4">
        Upload links
      </Title>
      {links.isPending ? (
        <Loader size="sm" />
      ) : links.isError ? (
        <Alert color="red" variant="light">
          {errorMessage(links.error, "Failed to load the upload links")}
        </Alert>
      ) : links.data.length === 0 ? (
        <EmptyPanel
          testId="upload-links-empty"
          icon={<IconInbox size={28} />}
          title="No upload links yet"
          description="Links made with Request files… on a board are listed here: people without an account send files into that board through them."
        />
      ) : (
        <LinksTable
          links={links.data}
          keyOf={(r) => r.id}
          testId="upload-links-table"
          rowTestId="upload-link-row"
          minWidth={720}
          columns={COLUMNS}
          useRowActions={useRowActions}
        />
      )}
    </Stack>
  );
}

const COLUMNS: readonly [LinkColumn<FileRequestSummary>, ...LinkColumn<FileRequestSummary>[]] = [
  {
    header: "Into",
    cell: (r) => (
      <LinkSubject
        name={r.board_name}
        detail={`${r.title || "Upload link"}${r.created_by_name ? ` · by ${r.created_by_name}` : ""}`}
        locked={r.has_password}
      />
    ),
  },
  {
    header: "State",
    cell: (r) => {
      const state = requestState(r);
      return (
        <Badge variant="light" color={state.color}>
          {state.label}
        </Badge>
      );
    },
  },
  {
    header: "Received",
    cell: (r) => (
      <Text size="sm">
        {r.files_received} of {r.max_files} ({formatBytes(r.bytes_received)})
      </Text>
    ),
  },
  { header: "Last upload", cell: (r) => <LinkMoment at={r.last_upload_at} /> },
];

function useUploadLinkActions(workspaceId: string, r: FileRequestSummary): LinkRowActions {
  const { update, remove } = useFileRequestMutations(workspaceId, r.board_id);
  return {
    active: r.is_active,
    activeLabel: `${r.is_active ? "Disable" : "Enable"} the upload link into ${r.board_name}`,
    updating: update.isPending,
    setActive: (active) =>
      update.mutate(
        { id: r.id, body: { is_active: active } },
        { onError: (err) => notifyError(errorMessage(err, "Failed to update the upload link")) },
      ),
    url: publicLink(r),
    copyLabel: "Copy upload link",
    deleteLabel: `Delete the upload link into ${r.board_name}`,
    deleteIcon: <IconTrash size={16} />,
    deleting: remove.isPending,
    remove: () =>
      remove.mutate(r.id, {
        onSuccess: () => notifySuccess("Upload link deleted"),
        onError: (err) => notifyError(errorMessage(err, "Failed to delete the upload link")),
      }),
  };
}

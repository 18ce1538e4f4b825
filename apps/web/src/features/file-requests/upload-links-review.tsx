import { type FileRequestSummary, formatBytes } from "@hangar/contract";
import { ActionIcon, Alert, Badge, Group, Loader, Stack, Switch, Table, Text, Title, Tooltip } from "@mantine/core";
import { IconCopy, IconInbox, IconLock, IconTrash } from "@tabler/icons-react";
import { copyLink, publicLink } from "../../entities/public-link";
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
  // The share links above already say when the caller is not an admin.
  if (isApiError(links.error) && links.error.status === 403) return null;
  return (
    <Stack gap="sm" mt="xl">
      <Title order={4}>Upload links</Title>
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
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" data-testid="upload-links-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Into</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Received</Table.Th>
                <Table.Th>Last upload</Table.Th>
                <Table.Th>Active</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {links.data.map((r) => (
                <Row key={r.id} workspaceId={workspaceId} request={r} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function Row({ workspaceId, request: r }: { workspaceId: string; request: FileRequestSummary }) {
  const { update, remove } = useFileRequestMutations(workspaceId, r.board_id);
  const state = requestState(r);
  return (
    <Table.Tr data-testid="upload-link-row">
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          {r.has_password && <IconLock size={14} aria-label="Password protected" />}
          <Stack gap={0} miw={0}>
            <Text size="sm" fw={600} truncate="end">
              {r.board_name}
            </Text>
            <Text size="xs" c="dimmed" truncate="end">
              {r.title || "Upload link"}
              {r.created_by_name ? ` · by ${r.created_by_name}` : ""}
            </Text>
          </Stack>
        </Group>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={state.color}>
          {state.label}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          {r.files_received} of {r.max_files} ({formatBytes(r.bytes_received)})
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={r.last_upload_at ? undefined : "dimmed"}>
          {r.last_upload_at ? new Date(r.last_upload_at).toLocaleString() : "Never"}
        </Text>
      </Table.Td>
      <Table.Td>
        <Switch
          checked={r.is_active}
          aria-label={`${r.is_active ? "Disable" : "Enable"} the upload link into ${r.board_name}`}
          disabled={update.isPending}
          onChange={(e) =>
            update.mutate(
              { id: r.id, body: { is_active: e.currentTarget.checked } },
              { onError: (err) => notifyError(errorMessage(err, "Failed to update the upload link")) },
            )
          }
        />
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Copy link">
            <ActionIcon variant="subtle" aria-label="Copy upload link" onClick={() => void copyLink(publicLink(r))}>
              <IconCopy size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete link">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete the upload link into ${r.board_name}`}
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(r.id, {
                  onSuccess: () => notifySuccess("Upload link deleted"),
                  onError: (err) => notifyError(errorMessage(err, "Failed to delete the upload link")),
                })
              }
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

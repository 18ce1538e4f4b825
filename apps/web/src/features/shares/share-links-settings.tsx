import { SHARE_MESSAGES, type ShareLinkSummary, shareSummary } from "@hangar/contract";
import { ActionIcon, Alert, Badge, Group, Loader, Stack, Switch, Table, Text, Tooltip } from "@mantine/core";
import { IconCopy, IconLink, IconLinkOff, IconLock } from "@tabler/icons-react";
import { copyLink, publicLink } from "../../entities/public-link";
import { errorMessage, isApiError } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { EmptyPanel } from "../../ui/empty-panel";
import { useShareLinkMutations, useWorkspaceShareLinks } from "./api";

const total = (l: ShareLinkSummary, kind: string) => l.activity.find((a) => a.kind === kind)?.count ?? 0;
const lastUsed = (l: ShareLinkSummary) =>
  l.activity.reduce<string | null>((max, a) => (max === null || a.last_at > max ? a.last_at : max), null);

/**
 * Settings → Share links (ADMIN, issue 17): every link of the workspace with what it shares, its
 * state and its use, to review what is out there and turn off or delete what should not be.
 */
export function ShareLinksSettings({ workspaceId }: { workspaceId: string }) {
  const links = useWorkspaceShareLinks(workspaceId);
  if (links.isPending) return <Loader size="sm" />;
  if (links.isError)
    return (
      <Alert color={isApiError(links.error) && links.error.status === 403 ? "gray" : "red"} variant="light">
        {isApiError(links.error) && links.error.status === 403
          ? "Only workspace admins can review share links."
          : errorMessage(links.error, SHARE_MESSAGES.getFailed)}
      </Alert>
    );
  if (links.data.length === 0)
    return (
      <EmptyPanel
        testId="share-links-empty"
        icon={<IconLink size={28} />}
        title="No share links yet"
        description="Links made with Share on an asset or a board are listed here, to review or revoke."
      />
    );
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {links.data.length} {links.data.length === 1 ? "link" : "links"}. Turning a link off or deleting it stops every
        page, thumbnail and download it handed out, at once.
      </Text>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" data-testid="share-links-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Shared</Table.Th>
              <Table.Th>Mode</Table.Th>
              <Table.Th>Opens</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Active</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.data.map((l) => (
              <LinkRow key={l.id} workspaceId={workspaceId} link={l} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function LinkRow({ workspaceId, link }: { workspaceId: string; link: ShareLinkSummary }) {
  const { update, remove } = useShareLinkMutations({
    workspaceId,
    type: link.content_type,
    objectId: link.object_id,
    boardId: link.board_id,
  });
  const expired = link.expires_at !== null && new Date(link.expires_at).getTime() < Date.now();
  const last = lastUsed(link);
  return (
    <Table.Tr data-testid="share-link-row">
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          {link.has_password && (
            <Tooltip label="Password protected">
              <IconLock size={14} aria-label="Password protected" />
            </Tooltip>
          )}
          <Stack gap={0} miw={0}>
            <Text size="sm" fw={600} truncate="end">
              {link.content_name}
            </Text>
            <Text size="xs" c="dimmed" truncate="end">
              {link.content_type === "board" ? "Board" : `Asset in ${link.board_name ?? "a board"}`}
              {link.created_by_name ? ` · by ${link.created_by_name}` : ""}
              {link.expires_at
                ? ` · ${expired ? "expired" : "expires"} ${new Date(link.expires_at).toLocaleString()}`
                : ""}
            </Text>
          </Stack>
        </Group>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={link.is_active && !expired ? "blue" : "gray"}>
          {expired ? "Expired" : shareSummary(link)}
        </Badge>
      </Table.Td>
      <Table.Td>{total(link, "open")}</Table.Td>
      <Table.Td>
        <Text size="sm" c={last ? undefined : "dimmed"}>
          {last ? new Date(last).toLocaleString() : "Never"}
        </Text>
      </Table.Td>
      <Table.Td>
        <Switch
          checked={link.is_active}
          aria-label={`${link.is_active ? "Disable" : "Enable"} the link of ${link.content_name}`}
          disabled={update.isPending}
          onChange={(e) =>
            update.mutate(
              { is_active: e.currentTarget.checked },
              { onError: (err) => notifyError(errorMessage(err, SHARE_MESSAGES.updateFailed)) },
            )
          }
        />
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Copy link">
            <ActionIcon variant="subtle" aria-label="Copy link" onClick={() => void copyLink(publicLink(link))}>
              <IconCopy size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete link">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete the link of ${link.content_name}`}
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => notifySuccess("Share link deleted"),
                  onError: (err) => notifyError(errorMessage(err, SHARE_MESSAGES.deleteFailed)),
                })
              }
            >
              <IconLinkOff size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

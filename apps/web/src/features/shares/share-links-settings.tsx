import { SHARE_MESSAGES, type ShareLinkSummary, shareSummary } from "@hangar/contract";
import { Alert, Badge, Loader, Stack, Text } from "@mantine/core";
import { IconLink, IconLinkOff } from "@tabler/icons-react";
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
import { useShareLinkMutations, useWorkspaceShareLinks } from "./api";

const total = (l: ShareLinkSummary, kind: string) => l.activity.find((a) => a.kind === kind)?.count ?? 0;
const lastUsed = (l: ShareLinkSummary) =>
  l.activity.reduce<string | null>((max, a) => (max === null || a.last_at > max ? a.last_at : max), null);
const isExpired = (l: ShareLinkSummary) => l.expires_at !== null && new Date(l.expires_at).getTime() < Date.now();

/**
 * Settings → Share links (ADMIN, issue 17): every link of the workspace with what it shares, its
 * state and its use, to review what is out there and turn off or delete what should not be.
 */
export function ShareLinksSettings({ workspaceId }: { workspaceId: string }) {
  const links = useWorkspaceShareLinks(workspaceId);
  const useRowActions = (l: ShareLinkSummary) => useShareLinkActions(workspaceId, l);
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
      <LinksTable
        links={links.data}
        keyOf={(l) => l.id}
        testId="share-links-table"
        rowTestId="share-link-row"
        minWidth={760}
        columns={COLUMNS}
        useRowActions={useRowActions}
      />
    </Stack>
  );
}

function detail(link: ShareLinkSummary): string {
  const expiry = link.expires_at
    ? ` · ${isExpired(link) ? "expired" : "expires"} ${new Date(link.expires_at).toLocaleString()}`
    : "";
  return `${link.content_type === "board" ? "Board" : `Asset in ${link.board_name ?? "a board"}`}${
    link.created_by_name ? ` · by ${link.created_by_name}` : ""
  }${expiry}`;
}

const COLUMNS: readonly [LinkColumn<ShareLinkSummary>, ...LinkColumn<ShareLinkSummary>[]] = [
  {
    header: "Shared",
    cell: (link) => (
      <LinkSubject name={link.content_name} detail={detail(link)} locked={link.has_password} lockTooltip />
    ),
  },
  {
    header: "Mode",
    cell: (link) => {
      const expired = isExpired(link);
      return (
        <Badge variant="light" color={link.is_active && !expired ? "blue" : "gray"}>
          {expired ? "Expired" : shareSummary(link)}
        </Badge>
      );
    },
  },
  { header: "Opens", cell: (link) => total(link, "open") },
  { header: "Last used", cell: (link) => <LinkMoment at={lastUsed(link)} /> },
];

function useShareLinkActions(workspaceId: string, link: ShareLinkSummary): LinkRowActions {
  const { update, remove } = useShareLinkMutations({
    workspaceId,
    type: link.content_type,
    objectId: link.object_id,
    boardId: link.board_id,
  });
  return {
    active: link.is_active,
    activeLabel: `${link.is_active ? "Disable" : "Enable"} the link of ${link.content_name}`,
    updating: update.isPending,
    setActive: (active) =>
      update.mutate(
        { is_active: active },
        { onError: (err) => notifyError(errorMessage(err, SHARE_MESSAGES.updateFailed)) },
      ),
    url: publicLink(link),
    copyLabel: "Copy link",
    deleteLabel: `Delete the link of ${link.content_name}`,
    deleteIcon: <IconLinkOff size={16} />,
    deleting: remove.isPending,
    remove: () =>
      remove.mutate(undefined, {
        onSuccess: () => notifySuccess("Share link deleted"),
        onError: (err) => notifyError(errorMessage(err, SHARE_MESSAGES.deleteFailed)),
      }),
  };
}

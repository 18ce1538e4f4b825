import type { Asset, AssetVersion } from "@hangar/contract";
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Menu,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from "@mantine/core";
import {
  IconArrowsDiff,
  IconCheck,
  IconChevronDown,
  IconDots,
  IconDownload,
  IconMessageCircle,
  IconStar,
  IconTrash,
  IconUnlink,
  IconUpload,
} from "@tabler/icons-react";
import { useState } from "react";
import { relativeTime } from "../../../entities/format";
import { versionLabel } from "../../../entities/version";
import { errorMessage } from "../../../lib/api-client";
import { openConfirm } from "../../../lib/confirm-modal";

export interface VersionMenuProps {
  asset: Asset;
  versions: AssetVersion[] | undefined;
  error: unknown;
  onRetry(): void;
  /** The version on screen. */
  shownId: string | null;
  onShow(v: AssetVersion): void;
  onCompare(a: AssetVersion, b: AssetVersion): void;
  onUpload(): void;
  onMakeCurrent(v: AssetVersion): void;
  onDownload(v: AssetVersion): void;
  onDelete(v: AssetVersion): void;
  onDetach(v: AssetVersion): void;
}

const busy = (v: AssetVersion) => v.status === "uploading" || v.status === "processing";

/**
 * The viewer header's version menu (issue 29): "v3 ▾" opens every version, newest first, with its
 * number, date, uploader and comment count; a row shows that version, its "…" holds Make current,
 * Compare, Download, Detach and Delete. Editors also upload a new version from here.
 */
export function VersionMenu(props: VersionMenuProps) {
  const { asset, versions, shownId } = props;
  const [opened, setOpened] = useState(false);
  const shown = versions?.find((v) => v.id === shownId);
  const number = shown?.number ?? asset.current_version?.number ?? 1;
  const pending = asset.newer_version && asset.newer_version.status !== "error" ? asset.newer_version : null;
  const close = () => setOpened(false);
  const other = versions?.find((v) => v.id !== shownId && v.status === "COMPLETED");

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={360}
      shadow="md"
      trapFocus
      returnFocus
      withinPortal
    >
      <Popover.Target>
        <Button
          variant="light"
          color="gray"
          size="compact-sm"
          rightSection={pending ? <Loader size={10} color="gray.0" /> : <IconChevronDown size={14} />}
          onClick={() => setOpened((o) => !o)}
          aria-label={`Version ${versionLabel(number)}: show versions`}
          aria-haspopup="dialog"
          data-testid="version-menu"
        >
          {versionLabel(number)}
        </Button>
      </Popover.Target>
      <Popover.Dropdown p={0} data-escape-local data-testid="version-list" aria-label="Versions">
        <Group justify="space-between" px="sm" py={8} wrap="nowrap">
          <Text fw={650} size="sm">
            Versions
          </Text>
          {asset.abilities.edit && (
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconUpload size={14} />}
              onClick={() => {
                close();
                props.onUpload();
              }}
            >
              Upload new version…
            </Button>
          )}
        </Group>
        {props.error && !versions ? (
          <Alert color="red" variant="light" m="sm" data-testid="versions-error">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm">{errorMessage(props.error, "Failed to fetch versions")}</Text>
              <Button size="compact-xs" variant="light" color="red" onClick={props.onRetry}>
                Retry
              </Button>
            </Group>
          </Alert>
        ) : !versions ? (
          <Group justify="center" py="md">
            <Loader size="sm" />
          </Group>
        ) : (
          <ScrollArea.Autosize mah={360} type="auto">
            <Stack gap={0} pb={4} role="list">
              {versions.map((v) => (
                <VersionRow
                  key={v.id}
                  version={v}
                  count={versions.length}
                  shown={v.id === shownId}
                  canEdit={asset.abilities.edit}
                  canDownload={asset.abilities.download && !!v.url}
                  shownLabel={shown ? versionLabel(shown.number) : null}
                  onShow={() => {
                    close();
                    props.onShow(v);
                  }}
                  onCompare={
                    shown && v.id !== shown.id && !busy(v)
                      ? () => {
                          close();
                          props.onCompare(shown, v);
                        }
                      : undefined
                  }
                  onMakeCurrent={() => {
                    close();
                    props.onMakeCurrent(v);
                  }}
                  onDownload={() => {
                    close();
                    props.onDownload(v);
                  }}
                  onDelete={() => {
                    close();
                    void openConfirm({
                      title: `Delete ${versionLabel(v.number)}?`,
                      children: (
                        <Text size="sm">
                          {v.is_current
                            ? "It goes to Recently deleted, and the newest remaining version becomes current."
                            : "It goes to Recently deleted, where it can be restored."}
                        </Text>
                      ),
                      labels: { confirm: "Delete", cancel: "Cancel" },
                      confirmProps: { color: "red" },
                      onConfirm: () => props.onDelete(v),
                    });
                  }}
                  onDetach={() => {
                    close();
                    props.onDetach(v);
                  }}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        {shown && other && versions && versions.length > 1 && (
          <Box px="sm" py={8} style={{ borderTop: "1px solid var(--mantine-color-default-border)" }}>
            <Button
              fullWidth
              size="compact-sm"
              variant="default"
              leftSection={<IconArrowsDiff size={16} />}
              onClick={() => {
                close();
                props.onCompare(shown, other);
              }}
              data-testid="version-compare"
            >
              Compare {versionLabel(shown.number)} with {versionLabel(other.number)}
            </Button>
          </Box>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

function VersionRow(props: {
  version: AssetVersion;
  count: number;
  shown: boolean;
  canEdit: boolean;
  canDownload: boolean;
  shownLabel: string | null;
  onShow(): void;
  onCompare?: () => void;
  onMakeCurrent(): void;
  onDownload(): void;
  onDelete(): void;
  onDetach(): void;
}) {
  const v = props.version;
  const label = versionLabel(v.number);
  const state = v.status === "COMPLETED" ? null : v.status === "error" ? "Failed" : "Processing…";
  return (
    <Group
      gap={6}
      wrap="nowrap"
      px="sm"
      py={6}
      role="listitem"
      aria-label={label}
      data-testid="version-row"
      data-version={v.number}
      data-shown={props.shown || undefined}
      style={{ background: props.shown ? "var(--mantine-color-default-hover)" : undefined }}
    >
      <UnstyledButton
        onClick={props.onShow}
        disabled={v.status !== "COMPLETED"}
        aria-label={`Show ${label}`}
        aria-current={props.shown || undefined}
        style={{ flex: 1, minWidth: 0, display: "flex", gap: 10, alignItems: "center" }}
      >
        <Box
          w={40}
          h={40}
          style={{
            flex: "none",
            borderRadius: 4,
            background: "var(--mantine-color-gray-2)",
            backgroundImage: v.thumbnail_url ? `url(${v.thumbnail_url})` : undefined,
            backgroundSize: "cover",
            backgroundPosition: "center",
          }}
        />
        <Box style={{ minWidth: 0, flex: 1 }}>
          <Group gap={6} wrap="nowrap">
            <Text fw={650} size="sm">
              {label}
            </Text>
            {v.is_current && (
              <Badge size="xs" variant="light" color="green" leftSection={<IconStar size={10} />}>
                Current
              </Badge>
            )}
            {props.shown && <IconCheck size={14} aria-label="Shown" />}
            {state && (
              <Text size="xs" c={v.status === "error" ? "red" : "dimmed"}>
                {state}
              </Text>
            )}
          </Group>
          <Text size="xs" c="dimmed" truncate="end" title={new Date(v.created_at).toLocaleString()}>
            {relativeTime(v.created_at)} · {v.uploaded_by?.name ?? "Unknown"}
          </Text>
        </Box>
      </UnstyledButton>
      <Group
        gap={2}
        wrap="nowrap"
        c="dimmed"
        aria-label={`${v.comment_count} ${v.comment_count === 1 ? "comment" : "comments"}`}
        data-testid="version-comments"
      >
        <IconMessageCircle size={14} />
        <Text size="xs">{v.comment_count}</Text>
      </Group>
      <Menu position="bottom-end" withinPortal={false} shadow="md" width={220}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Actions for ${label}`}>
            <IconDots size={14} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {props.canEdit && !v.is_current && (
            <Menu.Item
              leftSection={<IconStar size={14} />}
              disabled={v.status !== "COMPLETED"}
              onClick={props.onMakeCurrent}
            >
              Make current
            </Menu.Item>
          )}
          {props.onCompare && props.shownLabel && (
            <Menu.Item leftSection={<IconArrowsDiff size={14} />} onClick={props.onCompare}>
              Compare with {props.shownLabel}
            </Menu.Item>
          )}
          {props.canDownload && (
            <Menu.Item leftSection={<IconDownload size={14} />} onClick={props.onDownload}>
              Download
            </Menu.Item>
          )}
          {props.canEdit && props.count > 1 && (
            <>
              <Menu.Item leftSection={<IconUnlink size={14} />} disabled={busy(v)} onClick={props.onDetach}>
                Detach
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={props.onDelete}>
                Delete
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

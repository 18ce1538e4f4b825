import { formatBytes } from "@hangar/contract";
import { ActionIcon, Anchor, Badge, Box, Group, Loader, Progress, Stack, Text, Tooltip } from "@mantine/core";
import { IconPlayerStop, IconRefresh, IconX } from "@tabler/icons-react";
import { memo } from "react";
import { Link } from "react-router-dom";
import { AssetThumb, fileTypeOf } from "../../../entities/asset";
import { cancelUpload, retryUpload } from "../upload-runner";
import { isFinished, type UploadItem, uploadStore } from "../upload-store";
import { useUploadedAsset } from "../use-uploaded-asset";

export const ROW_HEIGHT = 68;

const percentOf = (item: UploadItem) => (item.size > 0 ? Math.floor((item.loaded / item.size) * 100) : 0);

function StatusBadge({ item }: { item: UploadItem }) {
  switch (item.status) {
    case "uploading":
      if (item.duplicates)
        return (
          <Badge variant="light" color="yellow" radius="sm">
            Already here
          </Badge>
        );
      return item.started ? (
        <Badge variant="light" color="brand" radius="sm">
          Uploading {percentOf(item)}%
        </Badge>
      ) : (
        <Badge variant="light" color="gray" radius="sm">
          Waiting
        </Badge>
      );
    case "processing":
      return (
        <Badge variant="light" color="yellow" radius="sm" leftSection={<Loader size={10} color="yellow.8" />}>
          Processing
        </Badge>
      );
    case "COMPLETED":
      return (
        <Badge variant="light" color="green" radius="sm">
          Completed
        </Badge>
      );
    default:
      return (
        <Badge variant="light" color="red" radius="sm">
          Error
        </Badge>
      );
  }
}

/** The folder part of a relative path: "Shoot/day1" for "Shoot/day1/a.jpg". */
const folderOf = (path: string | null) => (path?.includes("/") ? path.slice(0, path.lastIndexOf("/")) : null);

/** "v3 of harbour.jpg" once the server numbered the version, "New version of harbour.jpg" before. */
export const versionLine = (item: Pick<UploadItem, "versionOf" | "versionNumber">) =>
  item.versionOf
    ? item.versionNumber
      ? `v${item.versionNumber} of ${item.versionOf.name}`
      : `New version of ${item.versionOf.name}`
    : null;

/** One file in the upload dialog: what it is, how far it got, and what can be done with it. */
export const UploadItemRow = memo(function UploadItemRow({ item }: { item: UploadItem }) {
  const folder = versionLine(item) ?? folderOf(item.path);
  const asset = useUploadedAsset(item);
  return (
    <Group gap="sm" wrap="nowrap" h={ROW_HEIGHT} px="xs">
      <Box w={44} h={44} style={{ flex: "none", borderRadius: "var(--mantine-radius-sm)", overflow: "hidden" }}>
        <AssetThumb asset={asset} fileType={fileTypeOf(item.file.type)} />
      </Box>
      <Stack gap={4} miw={0} style={{ flex: 1 }}>
        <Group gap="xs" wrap="nowrap" justify="space-between">
          <Text size="sm" fw={500} truncate="end" title={item.path ?? item.name}>
            {item.name}
          </Text>
          <StatusBadge item={item} />
        </Group>
        {item.status === "error" ? (
          <Text size="xs" c="red.7" truncate="end" title={item.error ?? undefined} data-testid="upload-item-error">
            {item.error}
            {item.planLimit && item.workspaceId && (
              <>
                {" "}
                <Anchor component={Link} to={`/w/${item.workspaceId}/settings/subscription`} size="xs">
                  Upgrade the plan
                </Anchor>
              </>
            )}
          </Text>
        ) : (
          <Text size="xs" c="dimmed" truncate="end" title={folder ?? undefined} data-testid="upload-item-detail">
            {folder ? `${formatBytes(item.size)} · ${folder}` : formatBytes(item.size)}
          </Text>
        )}
        {/* Only while something is happening; finished rows keep the space, so rows never jump. */}
        {item.status === "uploading" || item.status === "processing" ? (
          <Progress
            value={item.status === "processing" ? 100 : percentOf(item)}
            size={4}
            radius="xl"
            color={item.status === "processing" ? "brand.3" : "brand"}
            striped={item.status === "processing"}
            animated={item.status === "processing"}
            aria-label={`Upload progress of ${item.name}`}
            transitionDuration={150}
          />
        ) : (
          <Box h={4} />
        )}
      </Stack>
      <Group gap={2} wrap="nowrap" w={56} justify="flex-end" style={{ flex: "none" }}>
        {item.status === "uploading" && !item.path && (
          <Tooltip label="Cancel upload" withArrow>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Cancel ${item.name}`}
              onClick={() => cancelUpload(item.id)}
            >
              <IconPlayerStop size={16} />
            </ActionIcon>
          </Tooltip>
        )}
        {item.status === "error" && (
          <Tooltip label="Retry" withArrow>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Retry ${item.name}`}
              onClick={() => retryUpload(item.id)}
            >
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        )}
        {isFinished(item) && (
          <Tooltip label="Remove from list" withArrow>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Remove ${item.name} from the list`}
              onClick={() => uploadStore.remove([item.id])}
            >
              <IconX size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    </Group>
  );
});

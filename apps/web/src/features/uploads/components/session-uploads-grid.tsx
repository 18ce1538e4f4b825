import { AspectRatio, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useMemo } from "react";
import { formatBytes } from "../format-bytes";
import { type UploadItem, useUploads } from "../upload-store";
import { AssetThumb, fileTypeOf } from "./asset-thumb";
import classes from "./uploads.module.css";

type Done = UploadItem & { asset: NonNullable<UploadItem["asset"]> };

/**
 * The assets uploaded and processed in this browser session, newest first: a stand-in on All assets
 * until the real asset grid (with paging and filters) arrives.
 */
export function SessionUploadsGrid({ workspaceId }: { workspaceId: string }) {
  const items = useUploads((s) => s.items);
  const done = useMemo(
    () =>
      items
        .filter((item): item is Done => item.workspaceId === workspaceId && item.status === "COMPLETED" && !!item.asset)
        .sort((a, b) => (b.completedAt ?? 0) - (a.completedAt ?? 0)),
    [items, workspaceId],
  );
  if (done.length === 0) return null;

  return (
    <Stack gap="sm" component="section" aria-labelledby="session-uploads-title" data-testid="session-uploads">
      <Group justify="space-between" align="baseline">
        <Title order={2} size="h4" id="session-uploads-title">
          Uploaded in this session
        </Title>
        <Text size="sm" c="dimmed">
          {done.length} asset{done.length === 1 ? "" : "s"}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 5 }} spacing="md">
        {done.map(({ id, asset, file }) => (
          <Card key={id} withBorder radius="md" padding={0} className={classes.card} data-testid="session-asset">
            <AspectRatio ratio={4 / 3}>
              <AssetThumb asset={asset} fileType={fileTypeOf(file.type)} iconSize={36} />
            </AspectRatio>
            <Stack gap={0} p="xs">
              <Text size="sm" fw={500} truncate="end" title={asset.name}>
                {asset.name}
              </Text>
              <Text size="xs" c="dimmed">
                {formatBytes(asset.size)}
                {asset.width && asset.height ? ` · ${asset.width}×${asset.height}` : ""}
              </Text>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

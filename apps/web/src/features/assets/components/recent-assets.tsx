import { AspectRatio, Card, Group, SimpleGrid, Skeleton, Text } from "@mantine/core";
import { Link } from "react-router-dom";
import { AssetThumb, DEFAULT_ORDER, useAssetList } from "../../../entities/asset";

const VIEW = { boardId: null, search: "", order: DEFAULT_ORDER, filters: {} };
const SHOWN = 8;

/**
 * The workspace's newest uploads (the first page of All assets, newest first), each opening the
 * viewer; `empty` when there are none.
 */
export function RecentAssets({ workspaceId, empty }: { workspaceId: string; empty: React.ReactNode }) {
  const list = useAssetList(workspaceId, VIEW);
  const first = list.data?.pages[0];
  if (list.isPending) {
    return (
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        {Array.from({ length: 4 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <Skeleton key={i} h={150} radius="md" />
        ))}
      </SimpleGrid>
    );
  }
  const assets = (first?.data ?? []).slice(0, SHOWN);
  if (!assets.length) return <>{empty}</>;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" data-testid="recent-assets">
      {assets.map((asset) => (
        <Card
          key={asset.id}
          component={Link}
          to={`/w/${workspaceId}/a/${asset.id}`}
          withBorder
          radius="md"
          padding={0}
          className="hangar-hover-card"
          aria-label={asset.name}
          data-testid="recent-asset"
        >
          <AspectRatio ratio={4 / 3}>
            <AssetThumb asset={asset} fileType={asset.file_type} iconSize={32} />
          </AspectRatio>
          <Group px="sm" py={6}>
            <Text size="sm" fw={500} truncate="end">
              {asset.name}
            </Text>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** How many assets the workspace has (null while loading), from the same query as RecentAssets. */
export function useAssetCount(workspaceId: string): number | null {
  const first = useAssetList(workspaceId, VIEW).data?.pages[0];
  return first ? first.pagination.total_count : null;
}

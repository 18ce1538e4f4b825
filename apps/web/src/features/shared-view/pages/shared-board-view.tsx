import { type Asset, formatBytes, SHARE_MESSAGES, type SharedPayload } from "@hangar/contract";
import {
  Anchor,
  Box,
  Breadcrumbs,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from "@mantine/core";
import { IconFileZip, IconFolderFilled, IconMovie, IconPhotoOff } from "@tabler/icons-react";
import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router-dom";
import { AssetThumb } from "../../../entities/asset";
import { SharedError } from "../../../entities/public-link";
import { notifyError } from "../../../lib/notify";
import { ProductMark } from "../../../ui/product-mark";
import { useSharedAssets, useSharedBoard, useSharedBoardDownload } from "../../shares";

/**
 * A shared board (spec 02 §2 /s/{token}, issue 17): its sub-boards to browse and its assets as a
 * grid, page after page as the visitor scrolls; a click opens the viewer in shared view. The board
 * being browsed is in the address (`?board=`), so Back walks back up.
 */
export function SharedBoardView(props: { token: string; payload: SharedPayload; onOpen(assetId: string): void }) {
  const { token, payload } = props;
  const [params, setParams] = useSearchParams();
  const boardId = params.get("board");
  const board = useSharedBoard(token, boardId, true);
  const assets = useSharedAssets(token, boardId, true);
  const current = board.data ?? (boardId ? undefined : payload.board!);
  const list = assets.data?.pages.flatMap((p) => p.data) ?? [];
  const total = assets.data?.pages[0]?.pagination.total_count;
  const sentinel = useRef<HTMLDivElement>(null);
  const zip = useSharedBoardDownload(token);
  const downloadBoard = () =>
    zip.mutate(boardId, {
      onSuccess: ({ download_url, filename }) => {
        const a = document.createElement("a");
        a.href = download_url;
        a.download = filename;
        document.body.append(a);
        a.click();
        a.remove();
      },
      // Spec 02 §8: a shared download's failure.
      onError: () => notifyError(SHARE_MESSAGES.downloadFailed),
    });

  // The next page when the end of the grid comes near.
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && assets.hasNextPage && !assets.isFetchingNextPage)
          void assets.fetchNextPage({ cancelRefetch: false });
      },
      { rootMargin: "800px" },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [assets.hasNextPage, assets.isFetchingNextPage, assets.fetchNextPage]);

  const goTo = (id: string | null) => setParams(id ? { board: id } : {});
  const error = board.error ?? assets.error;
  if (error) return <SharedError error={error} />;

  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)" data-testid="shared-board">
      <Group
        component="header"
        h={56}
        px="lg"
        justify="space-between"
        wrap="nowrap"
        bg="white"
        style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}
      >
        <ProductMark size="sm" />
        <Text size="sm" c="dimmed" truncate="end">
          Shared from {payload.workspace_name}
        </Text>
      </Group>
      <Stack component="main" gap="lg" p={{ base: "md", sm: "xl" }} maw={1400} mx="auto">
        <Stack gap={4}>
          {current && current.path.length > 0 && (
            <Breadcrumbs separator="›">
              {current.path.map((b, i) => (
                <Anchor key={b.id} size="sm" onClick={() => goTo(i === 0 ? null : b.id)} component="button">
                  {b.name}
                </Anchor>
              ))}
            </Breadcrumbs>
          )}
          <Group justify="space-between" align="flex-end">
            <Title order={1} size="h2" data-testid="shared-board-name">
              {current?.name ?? "…"}
            </Title>
            <Group gap="sm">
              {total !== undefined && (
                <Text size="sm" c="dimmed">
                  {total} {total === 1 ? "item" : "items"}
                </Text>
              )}
              {payload.share_settings.allow_downloads && (
                <Button
                  variant="default"
                  leftSection={<IconFileZip size={16} />}
                  loading={zip.isPending}
                  onClick={downloadBoard}
                  data-testid="shared-board-download"
                >
                  Download all
                </Button>
              )}
            </Group>
          </Group>
        </Stack>

        {current && current.children.length > 0 && (
          <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 6 }} spacing="sm">
            {current.children.map((b) => (
              <Paper
                key={b.id}
                component="button"
                type="button"
                withBorder
                radius="md"
                p="sm"
                onClick={() => goTo(b.id)}
                data-testid="shared-sub-board"
                style={{ cursor: "pointer", textAlign: "left" }}
              >
                <Group gap="xs" wrap="nowrap">
                  <IconFolderFilled size={20} color="var(--mantine-color-blue-6)" />
                  <Text size="sm" fw={600} truncate="end">
                    {b.name}
                  </Text>
                </Group>
              </Paper>
            ))}
          </SimpleGrid>
        )}

        {assets.isPending ? (
          <Center py="xl">
            <Loader />
          </Center>
        ) : list.length === 0 ? (
          <Stack align="center" gap={4} py={64} data-testid="shared-empty">
            <IconPhotoOff size={36} color="var(--mantine-color-gray-5)" />
            <Text fw={600}>No files here</Text>
            <Text size="sm" c="dimmed">
              {current && current.children.length > 0 ? "Open a board above." : "This board is empty."}
            </Text>
          </Stack>
        ) : (
          <Box
            data-testid="shared-grid"
            style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(168px, 1fr))", gap: 12 }}
          >
            {list.map((a) => (
              <SharedCard key={a.id} asset={a} onOpen={() => props.onOpen(a.id)} />
            ))}
          </Box>
        )}
        <div ref={sentinel} />
        {assets.hasNextPage && (
          <Center>
            <Button variant="subtle" loading={assets.isFetchingNextPage} onClick={() => void assets.fetchNextPage()}>
              Show more
            </Button>
          </Center>
        )}
      </Stack>
    </Box>
  );
}

function SharedCard({ asset, onOpen }: { asset: Asset; onOpen(): void }) {
  return (
    <UnstyledButton
      onClick={onOpen}
      data-testid="shared-card"
      data-asset-id={asset.id}
      style={{
        borderRadius: 8,
        overflow: "hidden",
        background: "white",
        border: "1px solid var(--mantine-color-gray-3)",
      }}
    >
      <Box pos="relative" style={{ aspectRatio: "4 / 3" }}>
        <AssetThumb asset={asset} fileType={asset.file_type} iconSize={36} />
        {asset.file_type === "VIDEO" && (
          <Box pos="absolute" left={8} bottom={8} c="white" style={{ filter: "drop-shadow(0 1px 2px #0008)" }}>
            <IconMovie size={18} />
          </Box>
        )}
      </Box>
      <Box px="xs" py={6}>
        <Text size="sm" fw={500} truncate="end">
          {/* Named by what it shows (WCAG 2.5.3: the visible name and size are in the name). */}
          <VisuallyHidden>Open </VisuallyHidden>
          {asset.name}
        </Text>
        <Text size="xs" c="dimmed">
          {formatBytes(asset.size)}
        </Text>
      </Box>
    </UnstyledButton>
  );
}

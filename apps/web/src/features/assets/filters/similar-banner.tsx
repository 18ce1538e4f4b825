import { SIMILAR_DISTANCE_DEFAULT, SIMILAR_DISTANCE_MAX, type SimilarTo } from "@hangar/contract";
import { Box, CloseButton, Group, Paper, Slider, Text } from "@mantine/core";
import { memo, useEffect, useState } from "react";
import { type AssetFilters, AssetThumb, useAsset } from "../../../entities/asset";

// The ends are named below the slider, not as mark labels: centred on the ends, those overflow the box.
const MARKS = [{ value: 0 }, { value: SIMILAR_DISTANCE_MAX }];

/**
 * "Similar to <name>" above the grid while the listing's `similar_to` is set (issue 32): the asset's
 * thumbnail and name, how alike the results must be (the contract's distance in bits, 0 near-identical
 * to SIMILAR_DISTANCE_MAX), and a button that takes the condition out. The other filters stay.
 */
export const SimilarBanner = memo(function SimilarBanner({
  workspaceId,
  filters,
  onChange,
}: {
  workspaceId: string;
  filters: AssetFilters;
  onChange: (filters: AssetFilters) => void;
}) {
  const similar = filters.similar_to as SimilarTo | undefined;
  const asset = useAsset(workspaceId, similar?.asset_id ?? null);
  const distance = similar?.max_distance ?? SIMILAR_DISTANCE_DEFAULT;
  // The slider moves freely; the listing is asked again when it is let go.
  const [shown, setShown] = useState(distance);
  useEffect(() => setShown(distance), [distance]);
  if (!similar) return null;
  const name = asset.data?.name ?? (asset.isError ? "an asset" : "…");
  const set = (next: SimilarTo | undefined) => {
    const { similar_to: _, ...rest } = filters;
    onChange(next ? { ...rest, similar_to: next } : rest);
  };
  return (
    <Paper withBorder radius="md" p="sm" data-testid="similar-banner" role="region" aria-label="Similar pictures">
      <Group gap="md" wrap="wrap" align="center">
        <Group gap="sm" wrap="nowrap" style={{ flex: "1 1 220px", minWidth: 0 }}>
          <Box w={44} h={44} style={{ flexShrink: 0, borderRadius: 6, overflow: "hidden", position: "relative" }}>
            <AssetThumb asset={asset.data ?? null} fileType="IMAGE" iconSize={18} />
          </Box>
          <Box style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} truncate="end" data-testid="similar-title">
              Similar to {name}
            </Text>
            <Text size="xs" c="dimmed">
              Assets that look alike, within the other filters
            </Text>
          </Box>
        </Group>
        <Box style={{ flex: "1 1 220px" }} px={4}>
          <Text size="xs" c="dimmed" id="similar-distance-label" mb={2}>
            How alike: within {shown} of {SIMILAR_DISTANCE_MAX}
          </Text>
          <Slider
            min={0}
            max={SIMILAR_DISTANCE_MAX}
            step={1}
            value={shown}
            onChange={setShown}
            onChangeEnd={(v) => set({ asset_id: similar.asset_id, max_distance: v })}
            marks={MARKS}
            label={null}
            size="sm"
            thumbLabel="Similarity distance"
            data-testid="similar-distance"
          />
          <Group justify="space-between" mt={4} aria-hidden>
            <Text size="xs" c="dimmed">
              Identical
            </Text>
            <Text size="xs" c="dimmed">
              Loose
            </Text>
          </Group>
        </Box>
        <CloseButton
          aria-label="Clear similar filter"
          onClick={() => set(undefined)}
          data-testid="similar-clear"
          style={{ alignSelf: "flex-start" }}
        />
      </Group>
    </Paper>
  );
});

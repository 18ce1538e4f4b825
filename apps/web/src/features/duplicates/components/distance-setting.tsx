import { SIMILAR_DISTANCE_MAX } from "@hangar/contract";
import { Box, Paper, Slider, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { useSetDuplicateDistance } from "../api";

const MARKS = [
  { value: 0, label: "Near-identical" },
  { value: SIMILAR_DISTANCE_MAX, label: "Loose" },
];

/**
 * ADMIN: how alike two pictures must be to count as near duplicates (the workspace's distance, 0 to
 * SIMILAR_DISTANCE_MAX bits). Saved when the slider is let go; the groups are listed again.
 */
export function DistanceSetting({ workspaceId, value }: { workspaceId: string; value: number }) {
  const save = useSetDuplicateDistance(workspaceId);
  const [shown, setShown] = useState(value);
  useEffect(() => setShown(value), [value]);
  return (
    <Paper withBorder radius="md" p="md" data-testid="duplicate-distance">
      <Text size="sm" fw={600} id="duplicate-distance-label">
        Near-duplicate distance: {shown}
      </Text>
      <Text size="xs" c="dimmed" mb="xs">
        Pictures within this distance are grouped as near duplicates. Lower finds only near-identical copies.
      </Text>
      <Box px={4} pb="lg">
        <Slider
          min={0}
          max={SIMILAR_DISTANCE_MAX}
          step={1}
          value={shown}
          onChange={setShown}
          onChangeEnd={(v) => {
            if (v !== value) save.mutate(v);
          }}
          disabled={save.isPending}
          marks={MARKS}
          label={null}
          thumbLabel="Near-duplicate distance"
          maw={420}
        />
      </Box>
    </Paper>
  );
}

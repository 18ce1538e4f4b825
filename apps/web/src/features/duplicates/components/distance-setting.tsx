import { SIMILAR_DISTANCE_MAX } from "@hangar/contract";
import { Box, Group, Paper, Slider, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { useSetDuplicateDistance } from "../api";

// The ends are named below the slider, not as mark labels: centred on the ends, those overflow the box.
const MARKS = [{ value: 0 }, { value: SIMILAR_DISTANCE_MAX }];

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
      <Box px={4} maw={420}>
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
        />
        <Group justify="space-between" mt={4} aria-hidden>
          <Text size="xs" c="dimmed">
            Near-identical
          </Text>
          <Text size="xs" c="dimmed">
            Loose
          </Text>
        </Group>
      </Box>
    </Paper>
  );
}

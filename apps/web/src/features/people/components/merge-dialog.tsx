import type { Person } from "@hangar/contract";
import { Button, Group, Modal, Radio, Stack, Text } from "@mantine/core";
import { personName } from "../api";
import { FaceCrop } from "./face-crop";

/**
 * Asks before merging (issue 32): who the merged person is (whose name and page stay); the others'
 * faces join them for good, and the grouping never splits them again.
 */
export function MergeDialog({
  opened,
  people,
  target,
  onTarget,
  busy,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  people: Person[];
  target: string | null;
  onTarget: (id: string) => void;
  busy: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Merge ${people.length} people`} centered>
      <Stack gap="md">
        <Text size="sm">These are the same person. Keep whose name?</Text>
        <Radio.Group value={target} onChange={onTarget} name="merge-target" aria-label="Keep whose name">
          <Stack gap="xs">
            {people.map((p) => (
              <Radio
                key={p.id}
                value={p.id}
                data-testid="merge-target"
                label={
                  <Group gap="xs" wrap="nowrap">
                    <FaceCrop face={p.cover} size={32} />
                    <Text size="sm">
                      {personName(p)} · {p.face_count} {p.face_count === 1 ? "face" : "faces"}
                    </Text>
                  </Group>
                }
              />
            ))}
          </Stack>
        </Radio.Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={onConfirm} loading={busy} disabled={!target} data-testid="merge-confirm">
            Merge
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

import { Button, Group, Modal, Radio, ScrollArea, Stack, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useStackVersions } from "../api";
import { findCachedAssets } from "../cached-assets";

/**
 * Stack as versions (issue 29): the selected assets become versions of one of them, in the order
 * they were uploaded, the newest current. The one kept (the first uploaded unless chosen otherwise)
 * keeps its name, boards, tags, fields and links; the others' comments follow their versions.
 */
export function StackVersionsDialog({
  workspaceId,
  assetIds,
  opened,
  onClose,
  onStacked,
}: {
  workspaceId: string;
  assetIds: string[];
  opened: boolean;
  onClose: () => void;
  onStacked?: () => void;
}) {
  const queryClient = useQueryClient();
  const stack = useStackVersions(workspaceId);
  const known = useMemo(
    () => (opened ? findCachedAssets(queryClient, workspaceId, assetIds) : new Map()),
    [opened, queryClient, workspaceId, assetIds],
  );
  // Oldest first: the versions' order, and the first one the natural asset to keep.
  const ordered = useMemo(
    () =>
      [...assetIds].sort((a, b) =>
        (known.get(a)?.date_uploaded ?? "").localeCompare(known.get(b)?.date_uploaded ?? ""),
      ),
    [assetIds, known],
  );
  const [keep, setKeep] = useState<string | null>(null);
  useEffect(() => {
    if (opened) setKeep(ordered[0] ?? null);
  }, [opened, ordered]);
  const name = (id: string) => known.get(id)?.name ?? "Asset";

  const confirm = () => {
    if (!keep) return;
    stack.mutate(
      { keep, others: assetIds.filter((id) => id !== keep) },
      {
        onSuccess: () => {
          onClose();
          onStacked?.();
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Stack as versions" centered size={460}>
      <Stack gap="md" data-testid="stack-versions-dialog">
        <Text size="sm">
          These {assetIds.length} assets become versions of one asset, in the order they were uploaded; the newest
          becomes the current version. Their comments follow their versions.
        </Text>
        <Radio.Group
          value={keep}
          onChange={setKeep}
          label="Keep the name, boards, tags and fields of"
          description="The others leave the grid as assets of their own."
        >
          <ScrollArea.Autosize mah={220} mt="xs">
            <Stack gap={6}>
              {ordered.map((id, i) => (
                <Radio key={id} value={id} label={`${name(id)}${i === 0 ? " (first uploaded)" : ""}`} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Radio.Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={confirm} loading={stack.isPending} disabled={!keep} data-autofocus>
            Stack as versions
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

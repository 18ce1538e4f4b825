import type { Asset } from "@hangar/contract";
import { Button, Group, Modal, Stack, Textarea, TextInput } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { useUpdateAsset } from "../api";

/** Rename an asset and edit its description (one PUT). 350 px like every rename dialog (spec 01 §2). */
export function EditAssetDialog({
  workspaceId,
  asset,
  opened,
  onClose,
}: {
  workspaceId: string;
  asset: Pick<Asset, "id" | "name" | "description"> | null;
  opened: boolean;
  onClose: () => void;
}) {
  const update = useUpdateAsset(workspaceId);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  useEffect(() => {
    if (opened) {
      setName(asset?.name ?? "");
      setDescription(asset?.description ?? "");
    }
  }, [opened, asset?.name, asset?.description]);

  const trimmed = name.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!asset || !trimmed) return;
    const patch: { id: string; name?: string; description?: string | null } = { id: asset.id };
    if (trimmed !== asset.name) patch.name = trimmed;
    if (description !== (asset.description ?? "")) patch.description = description.trim() ? description : null;
    if (patch.name === undefined && patch.description === undefined) return onClose();
    update.mutate(patch, { onSuccess: onClose });
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Rename asset" centered size={350}>
      <form onSubmit={submit} noValidate data-testid="edit-asset-dialog">
        <Stack gap="md">
          <TextInput
            label="Name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={255}
            data-autofocus
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            maxRows={8}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            maxLength={10_000}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!trimmed} loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

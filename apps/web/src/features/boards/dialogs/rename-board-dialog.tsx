import { BOARD_MESSAGES, type Board } from "@hangar/contract";
import { Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { useRenameBoard } from "../../../entities/board";

/** Rename from the board page (the tree renames inline). 350 px wide; Save is off for an empty name. */
export function RenameBoardDialog({
  workspaceId,
  board,
  opened,
  onClose,
}: {
  workspaceId: string;
  board: Board | null;
  opened: boolean;
  onClose: () => void;
}) {
  const rename = useRenameBoard(workspaceId);
  const [name, setName] = useState(board?.name ?? "");
  useEffect(() => {
    if (opened) setName(board?.name ?? "");
  }, [opened, board?.name]);

  const trimmed = name.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!board || !trimmed) return;
    if (trimmed === board.name) return onClose();
    rename.mutate({ id: board.id, name: trimmed });
    onClose();
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Rename board" centered size={350}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Name"
            placeholder={BOARD_MESSAGES.placeholder}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={200}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!trimmed}>
              Rename
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import { type Board, SMART_BOARD_MESSAGES, type SmartBoardFilter } from "@hangar/contract";
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { IconFilterBolt } from "@tabler/icons-react";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useBoardTree, useCreateSmartBoard } from "../../../entities/board";
import { errorMessage } from "../../../lib/api-client";

const ROOT = "__root__";

/** Every normal board, depth-first, its path as the label (a smart board holds no sub-boards). */
function parentOptions(roots: readonly Board[]) {
  const out: Array<{ value: string; label: string }> = [{ value: ROOT, label: "Top level" }];
  const walk = (boards: readonly Board[], path: string) => {
    for (const b of boards) {
      if (b.kind === "smart") continue;
      const label = path ? `${path} › ${b.name}` : b.name;
      out.push({ value: b.id, label });
      walk(b.children ?? [], label);
    }
  };
  walk(roots, "");
  return out;
}

/**
 * "Save as smart board" (issue 33): a name and where in the tree; the board then shows whatever
 * matches `filter` now. Opens the new board on success; the server's refusal is shown as it says it.
 */
export function SaveSmartBoardDialog({
  opened,
  onClose,
  workspaceId,
  filter,
  defaultParent,
}: {
  opened: boolean;
  onClose: () => void;
  workspaceId: string;
  filter: SmartBoardFilter;
  defaultParent: string | null;
}) {
  const tree = useBoardTree(workspaceId);
  const options = useMemo(() => parentOptions(tree.data ?? []), [tree.data]);
  const [name, setName] = useState("");
  const [parent, setParent] = useState<string>(ROOT);
  const create = useCreateSmartBoard(workspaceId);
  const navigate = useNavigate();
  const { reset } = create;
  // Each opening starts afresh, under the board it was opened on when that is a normal one.
  useEffect(() => {
    if (!opened) return;
    setName("");
    setParent(defaultParent ?? ROOT);
    reset();
  }, [opened, defaultParent, reset]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    create.mutate(
      { name: trimmed, parentId: parent === ROOT ? null : parent, filter },
      {
        onSuccess: (board) => {
          onClose();
          navigate(`/w/${workspaceId}/b/${board.id}`);
        },
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={SMART_BOARD_MESSAGES.saveAs}
      centered
      data-testid="save-smart-dialog"
    >
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            A smart board shows whatever matches these filters now: assets join and leave it as they change.
          </Text>
          <TextInput
            label="Name"
            required
            data-autofocus
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={name.length > 0 && !name.trim() ? "Name is required" : undefined}
          />
          <Select
            label="Place it in"
            data={options}
            value={parent}
            onChange={(v) => setParent(v ?? ROOT)}
            searchable
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {create.isError && (
            <Alert color="red" role="alert" title="Not saved">
              {errorMessage(create.error, "Failed to save smart board")}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              leftSection={<IconFilterBolt size={16} />}
              loading={create.isPending}
              disabled={!name.trim()}
              data-testid="save-smart-submit"
            >
              Save smart board
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

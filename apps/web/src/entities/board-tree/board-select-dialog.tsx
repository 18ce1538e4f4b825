import { BOARD_MESSAGES, type Board } from "@hangar/contract";
import {
  Alert,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import { IconAlertTriangle, IconHome, IconSearch } from "@tabler/icons-react";
import { type ReactNode, useEffect, useState } from "react";
import { boardTreeClasses as classes, useBoardTree, useTreeFilter } from "../board";
import { BoardTree } from "./board-tree";

export interface Destination {
  id: string;
  name: string;
}

const TREE_HEIGHT = 300;

/**
 * Picks a destination board: the tree in selection mode (a click chooses instead of navigating) with
 * "Root" on top (unless `allowRoot` is false, e.g. "Add to board"). At least 400 px wide (spec 01 §2).
 * `error` shows the server's reason for a refusal. Used for boards (move) and assets (add, move).
 */
export function BoardSelectDialog({
  workspaceId,
  opened,
  onClose,
  title,
  description,
  confirmLabel,
  onConfirm,
  pending = false,
  error = null,
  revealId = null,
  allowRoot = true,
  smartRefusal = null,
}: {
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  /** null: the root level. */
  onConfirm: (destination: Destination | null) => void;
  pending?: boolean;
  error?: string | null;
  /** Opens the tree down to this board (where the boards being moved live now). */
  revealId?: string | null;
  /** Offer "Root" (the root level) as a destination. */
  allowRoot?: boolean;
  /** Why a smart board cannot be the destination (issue 33): shown, and confirming refused, when one is chosen. */
  smartRefusal?: string | null;
}) {
  const tree = useBoardTree(workspaceId);
  // undefined: nothing chosen yet; null: Root.
  const [choice, setChoice] = useState<(Destination & { smart?: boolean }) | null | undefined>(undefined);
  const refused = !!choice?.smart && smartRefusal !== null;
  const [search, setSearch] = useState("");
  const filter = useTreeFilter(tree.data, search);
  const { ref, width } = useElementSize();

  useEffect(() => {
    if (!opened) {
      setChoice(undefined);
      setSearch("");
    }
  }, [opened]);

  const chooseBoard = (board: Board) => setChoice({ id: board.id, name: board.name, smart: board.kind === "smart" });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      size={460}
      styles={{ content: { minWidth: "min(400px, calc(100vw - 2rem))" } }}
    >
      <Stack gap="sm" data-testid="board-select-dialog">
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
        <TextInput
          size="xs"
          placeholder="Filter boards"
          aria-label="Filter boards"
          leftSection={<IconSearch size={14} />}
          rightSection={filter.pending ? <Loader size={12} /> : null}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <Box
          ref={ref}
          h={TREE_HEIGHT + (allowRoot ? 34 : 8)}
          style={{ border: "1px solid var(--mantine-color-gray-3)", borderRadius: "var(--mantine-radius-md)" }}
          p={4}
        >
          {allowRoot && (
            <UnstyledButton
              className={classes.node}
              data-active={choice === null || undefined}
              aria-pressed={choice === null}
              onClick={() => setChoice(null)}
              h={30}
              w="100%"
              px={4}
            >
              <IconHome size={16} stroke={1.7} className={classes.icon} aria-hidden />
              <span className={classes.name}>Root</span>
            </UnstyledButton>
          )}
          {tree.isPending ? (
            <Center h={TREE_HEIGHT}>
              <Loader size="sm" aria-label="Loading boards" />
            </Center>
          ) : tree.isError ? (
            <Center h={TREE_HEIGHT}>
              <Stack align="center" gap="xs">
                <Text size="sm" c="red">
                  {BOARD_MESSAGES.loadFailed}
                </Text>
                <Button size="xs" variant="light" onClick={() => tree.refetch()}>
                  Retry
                </Button>
              </Stack>
            </Center>
          ) : filter.boards.length === 0 ? (
            <Center h={TREE_HEIGHT}>
              <Text size="sm" c="dimmed">
                {BOARD_MESSAGES.empty}
              </Text>
            </Center>
          ) : (
            width > 0 && (
              <BoardTree
                aria-label="Destination boards"
                boards={filter.boards}
                filterTerm={filter.term}
                mode="select"
                width={width - 8}
                height={TREE_HEIGHT}
                activeId={choice?.id ?? null}
                revealId={revealId}
                onActivate={chooseBoard}
              />
            )
          )}
        </Box>
        {error && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} p="sm" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="space-between" gap="sm" wrap="nowrap">
          <Text size="sm" c={refused ? "red" : "dimmed"} truncate={!refused} role={refused ? "alert" : undefined}>
            {refused ? smartRefusal : choice === undefined ? "Choose a destination" : `To: ${choice?.name ?? "Root"}`}
          </Text>
          <Group gap="sm" wrap="nowrap">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              onClick={() =>
                choice !== undefined && !refused && onConfirm(choice && { id: choice.id, name: choice.name })
              }
              disabled={choice === undefined || refused}
              loading={pending}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}

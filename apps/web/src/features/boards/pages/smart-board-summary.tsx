import { type Board, SMART_BOARD_MESSAGES, type SmartBoardFilter } from "@hangar/contract";
import { Badge, Button, Group, Paper, Text } from "@mantine/core";
import { IconFilterEdit } from "@tabler/icons-react";
import { useMemo } from "react";
import type { AssetFilters } from "../../../entities/asset";
import { useUpdateSmartFilter } from "../../../entities/board";
import { WhenOpened } from "../../../lib/deferred";
import { LazyFilterDrawer as FilterDrawer, filterChips } from "../../assets";

/** The builder edits the filter keys; the search words and the board a smart board narrows to ride along. */
const drawerPart = (f: SmartBoardFilter): AssetFilters => {
  const { search: _s, board_id: _b, ...rest } = f;
  return rest as AssetFilters;
};

/**
 * What a smart board holds (issue 33): its saved filter as read-only chips, and for editors "Edit
 * filter", which opens the filter builder on it and saves it back.
 */
export function SmartBoardSummary({
  workspaceId,
  board,
  editable,
  editing,
  onEditing,
}: {
  workspaceId: string;
  board: Board;
  editable: boolean;
  editing: boolean;
  onEditing: (open: boolean) => void;
}) {
  const filter = (board.filter ?? {}) as SmartBoardFilter;
  const chips = useMemo(() => filterChips(drawerPart(filter)).map((c) => c.label), [filter]);
  const update = useUpdateSmartFilter(workspaceId);
  const words = filter.search ? [`“${filter.search}”`] : [];
  const inBoard = filter.board_id ? ["in one board"] : [];
  const all = [...words, ...chips, ...inBoard];

  return (
    <Paper withBorder radius="md" p="sm" data-testid="smart-board-summary">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap={6} wrap="wrap" miw={0} style={{ flex: 1 }}>
          <Text size="sm" c="dimmed">
            Shows whatever matches:
          </Text>
          {all.length ? (
            all.map((label) => (
              <Badge key={label} variant="light" color="violet" tt="none" maw="100%">
                {label}
              </Badge>
            ))
          ) : (
            <Text size="sm">its saved filter</Text>
          )}
        </Group>
        {editable && (
          <Button
            variant="light"
            color="violet"
            size="xs"
            leftSection={<IconFilterEdit size={14} />}
            onClick={() => onEditing(true)}
            data-testid="smart-edit-filter"
          >
            {SMART_BOARD_MESSAGES.editFilter}
          </Button>
        )}
      </Group>
      <WhenOpened open={editing}>
        <FilterDrawer
          opened={editing}
          onClose={() => onEditing(false)}
          workspaceId={workspaceId}
          value={drawerPart(filter)}
          title={`Filter of “${board.name}”`}
          applyLabel="Save filter"
          onApply={(next) => {
            const saved = {
              ...(next as SmartBoardFilter),
              ...(filter.search ? { search: filter.search } : {}),
              ...(filter.board_id ? { board_id: filter.board_id } : {}),
            };
            update.mutate({ boardId: board.id, filter: saved });
          }}
        />
      </WhenOpened>
    </Paper>
  );
}

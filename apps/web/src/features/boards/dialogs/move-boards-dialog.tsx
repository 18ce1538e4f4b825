import { BOARD_MESSAGES, type Board, SMART_BOARD_MESSAGES } from "@hangar/contract";
import { useEffect, useState } from "react";
import { useMoveBoards } from "../../../entities/board";
import { BoardSelectDialog, type Destination } from "../../../entities/board-tree";
import { errorMessage, isApiError } from "../../../lib/api-client";
import { notifyError } from "../../../lib/notify";

/**
 * "Move board" for one board or many: choose a destination (or Root), then one PUT each. A refusal
 * (into itself or a sub-board) keeps the dialog open with the server's reason.
 */
export function MoveBoardsDialog({
  workspaceId,
  boards,
  opened,
  onClose,
  onMoved,
}: {
  workspaceId: string;
  /** The topmost boards to move, in tree order. */
  boards: Board[];
  opened: boolean;
  onClose: () => void;
  onMoved?: (ids: string[], destination: Destination | null) => void;
}) {
  const move = useMoveBoards(workspaceId);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) setError(null);
  }, [opened]);

  const confirm = (destination: Destination | null) => {
    setError(null);
    const ids = boards.map((b) => b.id);
    move.mutateAsync({ ids, destination }).then(
      () => {
        onClose();
        onMoved?.(ids, destination);
      },
      (err: unknown) => {
        // A 422 explains itself ("A board cannot be moved into itself or one of its sub-boards.").
        const detail = isApiError(err) && err.status === 422 ? err.detail : null;
        setError(detail ?? errorMessage(err, BOARD_MESSAGES.moveFailed));
        notifyError(detail ?? BOARD_MESSAGES.moveFailed, detail ? BOARD_MESSAGES.moveFailed : undefined);
      },
    );
  };

  const many = boards.length > 1;
  return (
    <BoardSelectDialog
      smartRefusal={SMART_BOARD_MESSAGES.noChildren}
      workspaceId={workspaceId}
      opened={opened}
      onClose={onClose}
      title={many ? `Move ${boards.length} boards` : "Move board"}
      description={many ? `Moving ${boards.map((b) => b.name).join(", ")}` : `Moving “${boards[0]?.name ?? ""}”`}
      confirmLabel="Move here"
      onConfirm={confirm}
      pending={move.isPending}
      error={error}
      revealId={boards[0]?.id ?? null}
    />
  );
}

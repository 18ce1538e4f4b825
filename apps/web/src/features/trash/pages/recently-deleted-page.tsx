import { canEdit, TRASH_RETENTION_DAYS } from "@hangar/contract";
import { Button, Group, Skeleton, Stack, Text } from "@mantine/core";
import { IconRestore, IconTrash, IconTrashX } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { EmptyPanel } from "../../../ui/empty-panel";
import { ErrorState } from "../../../ui/error-state";
import { PageHeader } from "../../../ui/page-header";
import { TRASH_MESSAGES, type TrashItem, type TrashSelection, usePurgeTrash, useRestoreTrash, useTrash } from "../api";
import { PurgeDialog } from "../components/purge-dialog";
import { TrashSection } from "../components/trash-section";

const split = (items: TrashItem[]): TrashSelection => ({
  assetIds: items.filter((i) => i.kind === "asset").map((i) => i.id),
  boardIds: items.filter((i) => i.kind === "board").map((i) => i.id),
});

/**
 * /w/:id/recently-deleted — deleted boards and assets with who deleted them and when, restorable for
 * 30 days: restore (one or many) or delete forever after a confirmation. Editors act; others look.
 */
export function RecentlyDeletedPage() {
  const workspace = useCurrentWorkspace();
  const editable = canEdit(workspace.user_role);
  const trash = useTrash(workspace.id);
  const restore = useRestoreTrash(workspace.id);
  const purge = usePurgeTrash(workspace.id);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [purging, setPurging] = useState<{ items: TrashItem[]; open: boolean }>({ items: [], open: false });

  const all = useMemo(() => [...(trash.data?.boards ?? []), ...(trash.data?.assets ?? [])], [trash.data]);
  // Only what is still listed counts as selected (an item may be gone after a refetch).
  const picked = all.filter((i) => selected.has(i.id));

  // Assets deleted together with a board share its batch: say so under their names.
  const boardOfBatch = useMemo(
    () => new Map((trash.data?.boards ?? []).flatMap((b) => (b.batch_id ? [[b.batch_id, b.name] as const] : []))),
    [trash.data],
  );
  const note = (item: TrashItem) => {
    const board = item.batch_id ? boardOfBatch.get(item.batch_id) : undefined;
    return board ? `Deleted with the board “${board}”` : null;
  };

  const unselect = (items: TrashItem[]) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const i of items) next.delete(i.id);
      return next;
    });
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = (ids: string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of ids) on ? next.add(id) : next.delete(id);
      return next;
    });

  const doRestore = (items: TrashItem[]) => restore.mutate(split(items), { onSuccess: () => unselect(items) });
  const askPurge = (items: TrashItem[]) => setPurging({ items, open: true });
  const closePurge = () => setPurging((p) => ({ ...p, open: false }));
  const confirmPurge = () =>
    purge.mutate(split(purging.items), {
      onSuccess: () => {
        unselect(purging.items);
        closePurge();
      },
    });

  const busy = restore.isPending || purge.isPending;
  const header = (
    <PageHeader
      title="Recently deleted"
      description={`Deleted assets and boards stay here for ${TRASH_RETENTION_DAYS} days, then they are deleted forever.`}
    />
  );
  // Always there for editors (no jump when the first item is picked); its buttons need a selection.
  const toolbar = editable && (
    <Group gap="sm" justify="space-between" mih={36} data-testid="trash-bulk-actions">
      <Text size="sm" fw={picked.length ? 600 : 400} c={picked.length ? undefined : "dimmed"}>
        {picked.length ? `${picked.length} selected` : "Select items to restore them or delete them forever."}
      </Text>
      {picked.length > 0 && (
        <Group gap="sm">
          <Button variant="default" size="sm" onClick={() => setSelected(new Set())}>
            Clear
          </Button>
          <Button
            size="sm"
            leftSection={<IconRestore size={16} />}
            onClick={() => doRestore(picked)}
            loading={restore.isPending}
            disabled={purge.isPending}
          >
            Restore
          </Button>
          <Button
            size="sm"
            color="red"
            variant="light"
            leftSection={<IconTrashX size={16} />}
            onClick={() => askPurge(picked)}
            disabled={busy}
          >
            Delete forever
          </Button>
        </Group>
      )}
    </Group>
  );

  if (trash.isPending) {
    return (
      <>
        {header}
        <Stack gap="xs" role="status" aria-label="Loading recently deleted items">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={44} radius="sm" />
          ))}
        </Stack>
      </>
    );
  }
  if (trash.isError) {
    return (
      <>
        {header}
        <ErrorState
          title={TRASH_MESSAGES.loadFailed}
          message={errorMessage(trash.error, TRASH_MESSAGES.loadFailed)}
          onRetry={() => trash.refetch()}
          retrying={trash.isFetching}
        />
      </>
    );
  }
  if (all.length === 0) {
    return (
      <>
        {header}
        <EmptyPanel
          testId="recently-deleted-empty"
          icon={<IconTrash size={28} />}
          title="Nothing deleted recently"
          description={`When you delete assets or boards, you can restore them from here for ${TRASH_RETENTION_DAYS} days.`}
        />
      </>
    );
  }

  const sectionProps = {
    selected,
    editable,
    busy,
    onToggle: toggle,
    onToggleAll: toggleAll,
    onRestore: (item: TrashItem) => doRestore([item]),
    onPurge: (item: TrashItem) => askPurge([item]),
  };
  return (
    <>
      {header}
      <Stack gap="lg" data-testid="recently-deleted">
        {toolbar}
        {!editable && (
          <Text size="sm" c="dimmed">
            Only admins and editors can restore items or delete them forever.
          </Text>
        )}
        <TrashSection title="Boards" items={trash.data.boards} {...sectionProps} />
        <TrashSection title="Assets" items={trash.data.assets} note={note} {...sectionProps} />
      </Stack>
      <PurgeDialog
        opened={purging.open}
        names={purging.items.map((i) => i.name)}
        withBoards={purging.items.some((i) => i.kind === "board")}
        pending={purge.isPending}
        onClose={closePurge}
        onConfirm={confirmPurge}
      />
    </>
  );
}

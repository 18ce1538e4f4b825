import type { Board } from "@hangar/contract";
import { ActionIcon, Button, Group, Modal, Stack, Text, Tooltip } from "@mantine/core";
import { IconCloudUpload, IconFolder, IconPhoto, IconX } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { type DragEvent, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useMatch } from "react-router-dom";
import { boardKeys, indexTree, useBoardTree } from "../../../entities/board";
import { dragHasFiles, filesFromDrop, fromFileList, type PickedFile } from "../file-entries";
import { cancelAllUploads, startUploads } from "../upload-runner";
import { isFinished, summarize, summaryLine, uploadStore, useUploads } from "../upload-store";
import { DropZone } from "./drop-zone";
import { DuplicatePrompt } from "./duplicate-prompt";
import { UploadList } from "./upload-list";
import classes from "./uploads.module.css";

const WAIT_TEXT = "Files are still uploading: wait until every file is sent";

/** The current board's name from the cached tree (the boards panel keeps it loaded). */
function BoardName({ workspaceId, boardId }: { workspaceId: string; boardId: string }) {
  const tree = useBoardTree(workspaceId);
  const name = useMemo(() => indexTree(tree.data ?? []).get(boardId)?.board.name, [tree.data, boardId]);
  return <>{name ?? "this board"}</>;
}

/** A close control that stays put, saying why, while anything is uploading (spec 01 §4). */
function GuardedClose({ closable, onClose, icon }: { closable: boolean; onClose: () => void; icon?: boolean }) {
  const guard = {
    "data-disabled": !closable || undefined,
    "aria-disabled": !closable,
    onClick: () => closable && onClose(),
  };
  return (
    <Tooltip label={WAIT_TEXT} disabled={closable} withArrow multiline w={240}>
      {icon ? (
        <ActionIcon variant="subtle" color="gray" aria-label="Close upload dialog" {...guard}>
          <IconX size={18} />
        </ActionIcon>
      ) : (
        <Button variant="default" {...guard}>
          Close
        </Button>
      )}
    </Tooltip>
  );
}

/**
 * The upload dialog: drop files or whole folders anywhere on it, or pick them; each file shows its
 * progress and status until its asset is processed. Its items live in the upload store, so closing it
 * (allowed once nothing is uploading) leaves the processing ones polled.
 */
export function UploadDialog({ workspaceId }: { workspaceId: string | null }) {
  const opened = useUploads((s) => s.dialogOpen);
  const allItems = useUploads((s) => s.items);
  const routeBoard = useMatch("/w/:workspaceId/b/:boardId/*")?.params.boardId;
  // Nothing is filed into a smart board (issue 33): uploads opened on one go to All assets.
  // Read from the cached tree (the boards panel keeps it loaded), when the dialog opens.
  const queryClient = useQueryClient();
  const onSmart = useMemo(() => {
    if (!opened || !workspaceId || !routeBoard) return false;
    const tree = queryClient.getQueryData<Board[]>(boardKeys.tree(workspaceId)) ?? [];
    return indexTree(tree).get(routeBoard)?.board.kind === "smart";
  }, [opened, queryClient, workspaceId, routeBoard]);
  const boardId = routeBoard && routeBoard !== "all" && !onSmart ? routeBoard : null;
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const dragDepth = useRef(0);
  const [dragging, setDragging] = useState(false);

  const items = useMemo(
    () => (workspaceId ? allItems.filter((item) => item.workspaceId === workspaceId) : allItems),
    [allItems, workspaceId],
  );
  const summary = useMemo(() => summarize(items), [items]);
  const closable = !allItems.some((item) => item.status === "uploading");
  const finished = items.filter(isFinished);
  const close = () => {
    if (closable) uploadStore.setDialogOpen(false);
  };

  const target: ReactNode =
    workspaceId && boardId ? <BoardName workspaceId={workspaceId} boardId={boardId} /> : "All assets";
  const add = (picked: PickedFile[]) => startUploads(picked, { workspaceId, boardId });

  // React has no prop for it: the folder picker is an input with webkitdirectory.
  const setFolderInput = (input: HTMLInputElement | null) => {
    folderInput.current = input;
    input?.setAttribute("webkitdirectory", "");
  };

  // A drop that misses the dialog must not make the browser open the file instead of the app.
  useEffect(() => {
    if (!opened) return;
    const block = (event: globalThis.DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = "none";
    };
    window.addEventListener("dragover", block);
    window.addEventListener("drop", block);
    return () => {
      window.removeEventListener("dragover", block);
      window.removeEventListener("drop", block);
    };
  }, [opened]);

  const drag = {
    onDragEnter: (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      event.preventDefault();
      dragDepth.current += 1;
      setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      event.preventDefault();
      event.stopPropagation();
      event.dataTransfer.dropEffect = "copy";
    },
    onDragLeave: () => {
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (dragDepth.current === 0) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      event.stopPropagation();
      dragDepth.current = 0;
      setDragging(false);
      // The entries must be read now, inside the event; walking the folders happens after.
      void filesFromDrop(event.dataTransfer).then(add);
    },
  };

  return (
    <Modal.Root
      opened={opened}
      onClose={close}
      closeOnEscape={closable}
      closeOnClickOutside={closable}
      size="xl"
      yOffset="8vh"
    >
      <Modal.Overlay />
      <Modal.Content pos="relative" aria-describedby="upload-dialog-target" data-testid="upload-dialog" {...drag}>
        <Modal.Header>
          <Stack gap={2}>
            <Modal.Title fw={650} fz="lg">
              Upload files
            </Modal.Title>
            <Group gap={6} wrap="nowrap" c="dimmed" id="upload-dialog-target" data-testid="upload-target">
              {boardId ? <IconFolder size={14} aria-hidden /> : <IconPhoto size={14} aria-hidden />}
              <Text size="sm" span>
                Uploading to {target}
              </Text>
            </Group>
          </Stack>
          <GuardedClose closable={closable} onClose={close} icon />
        </Modal.Header>
        <Modal.Body>
          <Stack gap="md">
            <DropZone
              compact={items.length > 0}
              onSelectFiles={() => fileInput.current?.click()}
              onSelectFolder={() => folderInput.current?.click()}
            />
            <DuplicatePrompt items={items} />
            {items.length > 0 && <UploadList items={items} />}
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Text size="sm" c="dimmed" role="status" aria-live="polite" data-testid="upload-summary">
                {items.length ? summaryLine(summary) : "No files added yet"}
              </Text>
              <Group gap="xs" wrap="nowrap">
                {summary.uploading > 0 && (
                  <Button variant="subtle" color="red" onClick={() => cancelAllUploads(workspaceId)}>
                    Cancel all
                  </Button>
                )}
                {finished.length > 0 && (
                  <Button variant="subtle" color="gray" onClick={() => uploadStore.remove(finished.map((i) => i.id))}>
                    Clear finished
                  </Button>
                )}
                <GuardedClose closable={closable} onClose={close} />
              </Group>
            </Group>
          </Stack>
        </Modal.Body>
        {dragging && (
          <div className={classes.dragOverlay} aria-hidden>
            <IconCloudUpload size={36} />
            <Text fw={600}>Drop to upload to {target}</Text>
          </div>
        )}
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label="Files to upload"
          data-testid="upload-files-input"
          onChange={(event) => {
            add(fromFileList(event.currentTarget.files));
            event.currentTarget.value = "";
          }}
        />
        <input
          ref={setFolderInput}
          type="file"
          multiple
          hidden
          aria-label="Folder to upload"
          data-testid="upload-folder-input"
          onChange={(event) => {
            add(fromFileList(event.currentTarget.files));
            event.currentTarget.value = "";
          }}
        />
      </Modal.Content>
    </Modal.Root>
  );
}

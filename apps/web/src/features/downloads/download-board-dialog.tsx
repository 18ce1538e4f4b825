import { Button, Checkbox, Group, Modal, Stack, Text } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useDownload } from "./use-download";

/**
 * "Download board": the board as one zip, with the two options of spec 01 §7 — sub-boards included
 * (default) and folders per board (default; off flattens everything into one folder).
 */
export function DownloadBoardDialog({
  workspaceId,
  board,
  opened,
  onClose,
}: {
  workspaceId: string;
  board: { id: string; name: string; child_count?: number } | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { downloadBoard, isDownloading } = useDownload(workspaceId);
  const [includeSubboards, setIncludeSubboards] = useState(true);
  const [keepFolders, setKeepFolders] = useState(true);
  useEffect(() => {
    if (opened) {
      setIncludeSubboards(true);
      setKeepFolders(true);
    }
  }, [opened]);

  const start = () => {
    if (!board) return;
    onClose();
    void downloadBoard(board, { includeSubboards, flattenStructure: !keepFolders });
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Download board" centered size={400}>
      <Stack gap="md" data-testid="download-board-dialog">
        <Text size="sm">“{board?.name}” as one zip file.</Text>
        <Checkbox
          label="Include sub-boards"
          checked={includeSubboards}
          onChange={(event) => setIncludeSubboards(event.currentTarget.checked)}
        />
        <Checkbox
          label="Keep a folder for each board"
          description="Off: every file in one folder"
          checked={keepFolders}
          disabled={!includeSubboards}
          onChange={(event) => setKeepFolders(event.currentTarget.checked)}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button leftSection={<IconDownload size={16} />} onClick={start} disabled={isDownloading} data-autofocus>
            Download
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

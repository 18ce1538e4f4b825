import { Box, Button, Group, Stack, Text, ThemeIcon, UnstyledButton } from "@mantine/core";
import { IconCloudUpload, IconFiles, IconFolderPlus } from "@tabler/icons-react";
import classes from "./uploads.module.css";

interface DropZoneProps {
  /** A slim bar once the list has items; the full empty state before. */
  compact: boolean;
  onSelectFiles: () => void;
  onSelectFolder: () => void;
}

/**
 * What the dialog shows where files go. The dashed area is a button (the file picker on click, Enter
 * or Space); the two buttons sit beside it, not inside it (no control nested in another).
 * Dropping works anywhere on the dialog, which handles the drag events.
 */
export function DropZone({ compact, onSelectFiles, onSelectFolder }: DropZoneProps) {
  const buttons = (
    // They wrap onto two lines where the dialog is narrower than both (a phone).
    <Group gap="xs" justify="center" wrap="wrap">
      <Button size={compact ? "xs" : "sm"} leftSection={<IconFiles size={16} />} onClick={onSelectFiles}>
        Select files
      </Button>
      <Button
        size={compact ? "xs" : "sm"}
        variant="default"
        leftSection={<IconFolderPlus size={16} />}
        onClick={onSelectFolder}
      >
        Select folder
      </Button>
    </Group>
  );

  return (
    <Box p={compact ? "xs" : { base: "md", sm: "xl" }} className={classes.zone}>
      {compact ? (
        <Group justify="space-between" wrap="wrap" gap="sm">
          <UnstyledButton
            onClick={onSelectFiles}
            aria-label="Drop more files or folders here, or press Enter to select files"
            data-testid="upload-drop-zone"
            data-autofocus
            className={classes.target}
            px="xs"
            py={4}
          >
            <Group gap="xs" wrap="nowrap">
              <IconCloudUpload size={18} color="var(--mantine-color-brand-6)" aria-hidden />
              <Text size="sm" c="dimmed">
                Drop more files or folders here
              </Text>
            </Group>
          </UnstyledButton>
          {buttons}
        </Group>
      ) : (
        <Stack align="center" gap="md">
          <UnstyledButton
            onClick={onSelectFiles}
            aria-label="Drop files or folders here, or press Enter to select files"
            data-testid="upload-drop-zone"
            data-autofocus
            className={classes.target}
            p="sm"
          >
            <Stack align="center" gap={6}>
              <ThemeIcon size={52} radius="xl" variant="light" aria-hidden>
                <IconCloudUpload size={28} />
              </ThemeIcon>
              <Text fw={600}>Drop files or folders here</Text>
            </Stack>
          </UnstyledButton>
          {/* Outside the button: its name holds what it shows (WCAG 2.5.3), this is a note beside it. */}
          <Text size="sm" c="dimmed" ta="center" maw={360} mt={-10}>
            Any file type. A folder keeps its structure: each sub-folder becomes a board.
          </Text>
          {buttons}
        </Stack>
      )}
    </Box>
  );
}

import { Group, Progress, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconDownload } from "@tabler/icons-react";
import { createElement } from "react";
import type { DownloadState } from "./download-state";
import { downloadStore } from "./download-store";

const NOTIFICATION_ID = "hangar-download-progress";

/** The panel's body: what is downloading and a bar with its progress. */
function DownloadProgressBody({ label, progress }: { label: string; progress: number }) {
  return (
    <Stack gap={6} data-testid="download-progress" data-progress={progress}>
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text size="sm" fw={500} truncate>
          {label}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {progress}%
        </Text>
      </Group>
      <Progress value={progress} size="sm" radius="xl" animated={progress < 100} aria-label="Download progress" />
    </Stack>
  );
}

let shown = false;

function sync(s: DownloadState) {
  if (!s.isDownloading) {
    if (shown) notifications.hide(NOTIFICATION_ID);
    shown = false;
    return;
  }
  const data = {
    id: NOTIFICATION_ID,
    title: "Downloading",
    icon: createElement(IconDownload, { size: 16 }),
    message: createElement(DownloadProgressBody, { label: s.label ?? "", progress: s.progress }),
    autoClose: false as const,
    withCloseButton: false,
  };
  if (shown) notifications.update(data);
  else notifications.show(data);
  shown = true;
}

let installed = false;

/**
 * The visible progress bar: a notification that stays while the flag is up and follows the progress.
 * Installed once, the first time a download starts (no component needs to be mounted for it).
 */
export function installDownloadProgress(): void {
  if (installed) return;
  installed = true;
  downloadStore.subscribe(() => sync(downloadStore.getState()));
}

import { formatBytes } from "@hangar/contract";
import { Button, Collapse, Group, Loader, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { errorMessage } from "../../lib/api-client";
import { useReceivedFiles } from "./api";

/** A link's received files, on demand: name, size, who sent it (the name they gave) and when. */
export function ReceivedFiles({
  workspaceId,
  requestId,
  count,
}: {
  workspaceId: string;
  requestId: string;
  count: number;
}) {
  const [open, setOpen] = useState(false);
  const files = useReceivedFiles(workspaceId, requestId, open);
  if (count === 0) return null;
  return (
    <Stack gap={4}>
      <Button
        variant="subtle"
        size="compact-xs"
        w="fit-content"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
      >
        {open ? "Hide received files" : `Show received files (${count})`}
      </Button>
      <Collapse expanded={open}>
        {files.isPending ? (
          <Loader size="xs" />
        ) : files.isError ? (
          <Text size="xs" c="red">
            {errorMessage(files.error, "Failed to load the received files")}
          </Text>
        ) : files.data.length === 0 ? (
          <Text size="xs" c="dimmed">
            The files sent through this link have been deleted.
          </Text>
        ) : (
          <Stack gap={2} data-testid="received-files">
            {files.data.map((f) => (
              <Group key={f.asset_id} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="xs" truncate>
                  {f.name}
                </Text>
                <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
                  {formatBytes(f.size)} · {f.uploader_name ?? "Anonymous"} · {new Date(f.created_at).toLocaleString()}
                </Text>
              </Group>
            ))}
          </Stack>
        )}
      </Collapse>
    </Stack>
  );
}

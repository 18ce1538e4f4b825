import { Button, Stack, Text } from "@mantine/core";
import { IconHistory } from "@tabler/icons-react";
import { useState } from "react";
import { useObjectHistory } from "../api";
import { AuditEventList } from "./audit-events";

/**
 * An asset's or a board's own history (issue 36): who changed, filed, commented, downloaded it and
 * when. Loaded when asked for, so opening the details costs nothing more.
 */
export function ObjectHistory(props: { workspaceId: string; kind: "asset" | "board"; id: string; open?: boolean }) {
  const [open, setOpen] = useState(props.open ?? false);
  const query = useObjectHistory(props.workspaceId, props.kind, props.id, open);
  if (!open)
    return (
      <Button
        variant="subtle"
        size="xs"
        leftSection={<IconHistory size={14} />}
        onClick={() => setOpen(true)}
        data-testid="show-history"
        style={{ alignSelf: "flex-start" }}
      >
        Show activity
      </Button>
    );
  return (
    <Stack gap={6} data-testid="object-history">
      <AuditEventList
        query={query}
        compact
        label="activity"
        empty={
          <Text size="sm" c="dimmed">
            Nothing recorded yet.
          </Text>
        }
      />
    </Stack>
  );
}

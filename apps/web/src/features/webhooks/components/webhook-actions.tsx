import type { Webhook } from "@hangar/contract";
import { ActionIcon, Group, Switch, Text, Tooltip } from "@mantine/core";
import { IconPencil, IconTrash } from "@tabler/icons-react";
import { errorMessage } from "../../../lib/api-client";
import { openConfirm } from "../../../lib/confirm-modal";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { useDeleteWebhook, useUpdateWebhook } from "../api";

/** Turns an endpoint off or on (off: what waits for it fails; on: it starts afresh). */
export function useToggleWebhook(workspaceId: string) {
  const update = useUpdateWebhook(workspaceId);
  const toggle = (hook: Webhook, enabled: boolean) =>
    update.mutate(
      { id: hook.id, body: { enabled } },
      {
        onSuccess: () => notifySuccess(enabled ? "Webhook endpoint enabled" : "Webhook endpoint disabled"),
        onError: (err) => notifyError(errorMessage(err, "Failed to save the endpoint")),
      },
    );
  return { toggle, pendingId: update.isPending ? (update.variables?.id ?? null) : null };
}

/** Asks, then deletes the endpoint and its log; `onDeleted` after it is gone. */
export function useConfirmDelete(workspaceId: string, onDeleted?: () => void) {
  const remove = useDeleteWebhook(workspaceId);
  return (hook: Webhook) =>
    openConfirm({
      title: "Delete webhook endpoint",
      centered: true,
      children: (
        <Text size="sm" style={{ overflowWrap: "anywhere" }}>
          Delete the endpoint {hook.url} and its delivery log? Nothing more is sent to it. This cannot be undone.
        </Text>
      ),
      labels: { confirm: "Delete endpoint", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        remove.mutate(hook.id, {
          onSuccess: () => onDeleted?.(),
          onError: (error) => notifyError(errorMessage(error, "Failed to delete the endpoint")),
        }),
    });
}

/** A row's actions: enabled switch, Edit, Delete (each named for the endpoint, for screen readers). */
export function WebhookRowActions({
  hook,
  toggling,
  onToggle,
  onEdit,
  onDelete,
}: {
  hook: Webhook;
  toggling: boolean;
  onToggle(enabled: boolean): void;
  onEdit(): void;
  onDelete(): void;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={hook.enabled ? "Disable" : "Enable"} withArrow>
        <Switch
          size="sm"
          checked={hook.enabled}
          disabled={toggling}
          aria-label={`Enabled: ${hook.url}`}
          onChange={(e) => onToggle(e.currentTarget.checked)}
        />
      </Tooltip>
      <Tooltip label="Edit" withArrow>
        <ActionIcon variant="subtle" aria-label={`Edit ${hook.url}`} onClick={onEdit}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete" withArrow>
        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${hook.url}`} onClick={onDelete}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

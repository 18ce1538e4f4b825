import { canAdmin, type Webhook, type WebhookWithSecret } from "@hangar/contract";
import { Alert, Button, Group, Skeleton, Stack, Text } from "@mantine/core";
import { IconInfoCircle, IconPlus, IconWebhook } from "@tabler/icons-react";
import { useState } from "react";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { EmptyPanel } from "../../../ui/empty-panel";
import { ErrorState } from "../../../ui/error-state";
import { useWebhooks } from "../api";
import { useConfirmDelete, useToggleWebhook, WebhookRowActions } from "../components/webhook-actions";
import { WebhooksTable } from "../components/webhooks-table";
import { WebhookFormDialog } from "../dialogs/webhook-form-dialog";
import { WebhookSecretDialog } from "../dialogs/webhook-secret-dialog";

/** Settings → Webhooks (ADMIN, issue 36): the workspace's endpoints, adding, editing, disabling, deleting. */
export function SettingsWebhooksPage() {
  const workspace = useCurrentWorkspace();
  if (!canAdmin(workspace.user_role))
    return (
      <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} data-testid="webhooks-admins-only">
        Only admins manage webhooks.
      </Alert>
    );
  return <WebhooksSettings workspaceId={workspace.id} />;
}

function WebhooksSettings({ workspaceId }: { workspaceId: string }) {
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  const add = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
      Add endpoint
    </Button>
  );
  return (
    <Stack gap="md" data-testid="webhooks-page">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" c="dimmed" maw={640}>
          Webhooks tell your other systems when something happens here: Hangar POSTs each event you choose to your URL,
          signed with the endpoint's secret.
        </Text>
        {add}
      </Group>
      <EndpointsList workspaceId={workspaceId} onEdit={setEditing} onAdd={() => setAdding(true)} />
      <WebhookFormDialog
        workspaceId={workspaceId}
        opened={adding || editing !== null}
        hook={editing ?? undefined}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
        onCreated={setCreated}
      />
      <WebhookSecretDialog hook={created} onClose={() => setCreated(null)} />
    </Stack>
  );
}

function EndpointsList({
  workspaceId,
  onEdit,
  onAdd,
}: {
  workspaceId: string;
  onEdit(hook: Webhook): void;
  onAdd(): void;
}) {
  const hooks = useWebhooks(workspaceId);
  const { toggle, pendingId } = useToggleWebhook(workspaceId);
  const confirmDelete = useConfirmDelete(workspaceId);

  if (hooks.isPending)
    return (
      <Stack gap="xs" role="status" aria-label="Loading webhooks">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={56} />
        ))}
      </Stack>
    );
  if (hooks.isError)
    return (
      <ErrorState
        message={errorMessage(hooks.error, "Failed to fetch webhooks")}
        onRetry={() => hooks.refetch()}
        retrying={hooks.isFetching}
      />
    );
  if (hooks.data.length === 0)
    return (
      <EmptyPanel
        testId="webhooks-empty"
        icon={<IconWebhook size={28} />}
        title="No webhook endpoints yet"
        description="Add an endpoint to have Hangar tell another system when assets are uploaded, processed or changed, when comments and review decisions come in, when links are shared or opened, and when members join or leave."
        action={
          <Button variant="light" onClick={onAdd}>
            Add your first endpoint
          </Button>
        }
      />
    );
  return (
    <WebhooksTable
      hooks={hooks.data}
      hrefOf={(hook) => `/w/${workspaceId}/settings/webhooks/${hook.id}`}
      actions={(hook) => (
        <WebhookRowActions
          hook={hook}
          toggling={pendingId === hook.id}
          onToggle={(enabled) => toggle(hook, enabled)}
          onEdit={() => onEdit(hook)}
          onDelete={() => confirmDelete(hook)}
        />
      )}
    />
  );
}

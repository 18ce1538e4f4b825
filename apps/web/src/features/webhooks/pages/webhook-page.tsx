import { canAdmin, type Webhook, type WebhookDelivery, type WebhookWithSecret } from "@hangar/contract";
import { Alert, Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconInfoCircle, IconPencil, IconRotate, IconSend, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage, isApiError } from "../../../lib/api-client";
import { openConfirm } from "../../../lib/confirm-modal";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { EmptyPanel } from "../../../ui/empty-panel";
import { ErrorState } from "../../../ui/error-state";
import { NotFoundState } from "../../../ui/not-found-state";
import { useDeliveries, useRollSecret, useSendTest, useWebhook } from "../api";
import { DeliveriesTable } from "../components/deliveries-table";
import { StateBadge } from "../components/state-badges";
import { useConfirmDelete, useToggleWebhook } from "../components/webhook-actions";
import { DeliveryDialog } from "../dialogs/delivery-dialog";
import { WebhookFormDialog } from "../dialogs/webhook-form-dialog";
import { WebhookSecretDialog } from "../dialogs/webhook-secret-dialog";
import { moment } from "../events";

/** Settings → Webhooks → one endpoint (ADMIN): what it hears, its state, its delivery log and actions. */
export function WebhookPage() {
  const workspace = useCurrentWorkspace();
  const { hookId = "" } = useParams();
  if (!canAdmin(workspace.user_role))
    return (
      <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} data-testid="webhooks-admins-only">
        Only admins manage webhooks.
      </Alert>
    );
  return <Endpoint workspaceId={workspace.id} hookId={hookId} />;
}

function Endpoint({ workspaceId, hookId }: { workspaceId: string; hookId: string }) {
  const hook = useWebhook(workspaceId, hookId);
  const back = `/w/${workspaceId}/settings/webhooks`;
  const backLink = (
    <Anchor component={Link} to={back} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        All webhooks
      </Group>
    </Anchor>
  );
  if (hook.isPending)
    return (
      <Stack gap="md" role="status" aria-label="Loading the webhook">
        <Skeleton height={120} />
        <Skeleton height={240} />
      </Stack>
    );
  if (hook.isError)
    return isApiError(hook.error) && hook.error.status === 404 ? (
      <NotFoundState
        title="Webhook not found"
        description="It may have been deleted."
        backTo={back}
        backLabel="All webhooks"
      />
    ) : (
      <ErrorState
        message={errorMessage(hook.error, "Failed to fetch the webhook")}
        onRetry={() => hook.refetch()}
        retrying={hook.isFetching}
      />
    );
  return (
    <Stack gap="md" data-testid="webhook-page">
      {backLink}
      <Summary workspaceId={workspaceId} hook={hook.data} back={back} />
      <Log workspaceId={workspaceId} hookId={hookId} />
    </Stack>
  );
}

function Summary({ workspaceId, hook, back }: { workspaceId: string; hook: Webhook; back: string }) {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const test = useSendTest(workspaceId);
  const roll = useRollSecret(workspaceId);
  const { toggle, pendingId } = useToggleWebhook(workspaceId);
  const confirmDelete = useConfirmDelete(workspaceId, () => navigate(back));

  const sendTest = () =>
    test.mutate(hook.id, {
      onSuccess: (d) =>
        d.status === "delivered"
          ? notifySuccess(`Test event delivered: the endpoint answered ${d.response_status}`)
          : notifyError(d.error ?? "The endpoint did not take it", "Test event failed"),
      onError: (err) => notifyError(errorMessage(err, "Failed to send a test event")),
    });
  const confirmRoll = () =>
    openConfirm({
      title: "Roll signing secret",
      centered: true,
      children: (
        <Text size="sm">
          Replace the signing secret? The current one stops signing at once: deliveries fail your receiver's check until
          it has the new one.
        </Text>
      ),
      labels: { confirm: "Roll secret", cancel: "Cancel" },
      onConfirm: () =>
        roll.mutate(hook.id, {
          onSuccess: setSecret,
          onError: (err) => notifyError(errorMessage(err, "Failed to roll the secret")),
        }),
    });

  return (
    <Paper withBorder radius="lg" p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={2} miw={0} style={{ flex: "1 1 320px" }}>
            <Title order={2} size="h4" ff="monospace" style={{ overflowWrap: "anywhere" }}>
              {hook.url}
            </Title>
            {hook.description && (
              <Text size="sm" c="dimmed">
                {hook.description}
              </Text>
            )}
          </Stack>
          <StateBadge hook={hook} />
        </Group>
        {hook.state === "failing" && (
          <Alert color="orange" variant="light" title="Deliveries are failing">
            Deliveries have failed since {moment(hook.failing_since)}. Hangar retries each with growing waits; after a
            day of failures it disables the endpoint and mails the workspace's admins.
          </Alert>
        )}
        {hook.state === "disabled" && (
          <Alert color="gray" variant="light" title="Disabled">
            {hook.disabled_reason ? `Hangar disabled it: ${hook.disabled_reason} ` : "Nothing is sent to it. "}
            Enable it to receive events again; Redeliver sends a logged delivery again.
          </Alert>
        )}
        <Group gap={4}>
          {hook.events.map((e) => (
            <Badge key={e} size="sm" variant="light" color="blue" tt="none">
              {e}
            </Badge>
          ))}
        </Group>
        <Group gap="xs">
          <Button leftSection={<IconSend size={16} />} loading={test.isPending} onClick={sendTest}>
            Send test event
          </Button>
          <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
            Edit
          </Button>
          <Button variant="default" loading={pendingId === hook.id} onClick={() => toggle(hook, !hook.enabled)}>
            {hook.enabled ? "Disable" : "Enable"}
          </Button>
          <Button variant="default" leftSection={<IconRotate size={16} />} onClick={confirmRoll}>
            Roll secret
          </Button>
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={() => confirmDelete(hook)}
          >
            Delete
          </Button>
        </Group>
      </Stack>
      <WebhookFormDialog workspaceId={workspaceId} opened={editing} hook={hook} onClose={() => setEditing(false)} />
      <WebhookSecretDialog hook={secret} rolled onClose={() => setSecret(null)} />
    </Paper>
  );
}

function Log({ workspaceId, hookId }: { workspaceId: string; hookId: string }) {
  const log = useDeliveries(workspaceId, hookId);
  const [open, setOpen] = useState<WebhookDelivery | null>(null);
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h5">
          Delivery log
        </Title>
        <Button variant="subtle" size="compact-sm" loading={log.isRefetching} onClick={() => log.refetch()}>
          Refresh
        </Button>
      </Group>
      {log.isPending ? (
        <Stack gap="xs" role="status" aria-label="Loading the delivery log">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={40} />
          ))}
        </Stack>
      ) : log.isError ? (
        <ErrorState
          message={errorMessage(log.error, "Failed to fetch the delivery log")}
          onRetry={() => log.refetch()}
          retrying={log.isFetching}
        />
      ) : rows.length === 0 ? (
        <EmptyPanel
          testId="deliveries-empty"
          icon={<IconSend size={28} />}
          title="No deliveries yet"
          description="Each event sent to this endpoint is logged here for 30 days, with the answer. Send a test event to see one."
        />
      ) : (
        <>
          <DeliveriesTable deliveries={rows} onOpen={setOpen} />
          {log.hasNextPage && (
            <Group justify="center">
              <Button variant="default" loading={log.isFetchingNextPage} onClick={() => log.fetchNextPage()}>
                Show older deliveries
              </Button>
            </Group>
          )}
        </>
      )}
      <DeliveryDialog workspaceId={workspaceId} hookId={hookId} delivery={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}

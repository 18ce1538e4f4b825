import { type ApiKey, type ApiKeyCreated, canAdmin } from "@hangar/contract";
import { Alert, Anchor, Group, Skeleton, Stack, Text } from "@mantine/core";
import { IconInfoCircle, IconKey } from "@tabler/icons-react";
import { useState } from "react";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { openConfirm } from "../../../lib/confirm-modal";
import { notifyError } from "../../../lib/notify";
import { EmptyPanel } from "../../../ui/empty-panel";
import { ErrorState } from "../../../ui/error-state";
import { useApiKeys, useRevokeApiKey } from "../api";
import { ApiKeysTable } from "../components/api-keys-table";
import { ApiKeySecretDialog } from "../dialogs/api-key-secret-dialog";
import { CreateApiKeyDialog } from "../dialogs/create-api-key-dialog";

const API_DOCS = "/api/docs";

/** Settings → API keys (ADMIN, issue 36): the workspace's keys, creating one, revoking one. */
export function SettingsApiKeysPage() {
  const workspace = useCurrentWorkspace();
  if (!canAdmin(workspace.user_role))
    return (
      <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} data-testid="api-keys-admins-only">
        Only admins manage API keys.
      </Alert>
    );
  return <ApiKeysSettings workspaceId={workspace.id} />;
}

function ApiKeysSettings({ workspaceId }: { workspaceId: string }) {
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const create = <CreateApiKeyDialog workspaceId={workspaceId} onCreated={setCreated} />;
  return (
    <Stack gap="md" data-testid="api-keys-page">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" c="dimmed" maw={640}>
          Keys let scripts and other systems call the <DocsLink /> for this workspace, with only the scopes you give
          them.
        </Text>
        {create}
      </Group>
      <KeysList workspaceId={workspaceId} />
      <ApiKeySecretDialog created={created} workspaceId={workspaceId} onClose={() => setCreated(null)} />
    </Stack>
  );
}

/** The API docs, on one line: a link broken over two has its middle over the text beside it (phone walk). */
const DocsLink = () => (
  <Anchor href={API_DOCS} target="_blank" rel="noopener" underline="always" style={{ whiteSpace: "nowrap" }}>
    Hangar API
  </Anchor>
);

function KeysList({ workspaceId }: { workspaceId: string }) {
  const keys = useApiKeys(workspaceId);
  const revoke = useRevokeApiKey(workspaceId);

  const confirmRevoke = (key: ApiKey) =>
    openConfirm({
      title: "Revoke API key",
      centered: true,
      children: (
        <Text size="sm">
          Revoke “{key.name}” ({key.prefix}…)? Everything using it is refused from now on. This cannot be undone.
        </Text>
      ),
      labels: { confirm: "Revoke key", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        revoke.mutate(key.id, { onError: (error) => notifyError(errorMessage(error, "Failed to revoke API key")) }),
    });

  if (keys.isPending)
    return (
      <Stack gap="xs" role="status" aria-label="Loading API keys">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={48} />
        ))}
      </Stack>
    );
  if (keys.isError)
    return (
      <ErrorState
        message={errorMessage(keys.error, "Failed to fetch API keys")}
        onRetry={() => keys.refetch()}
        retrying={keys.isFetching}
      />
    );
  if (keys.data.length === 0)
    return (
      <EmptyPanel
        testId="api-keys-empty"
        icon={<IconKey size={28} />}
        title="No API keys yet"
        description={
          <>
            An API key lets a script, a website or another system read and change this workspace through the{" "}
            <DocsLink />, with only the scopes you choose. Keys can expire and can be revoked at any time.
          </>
        }
      />
    );
  return (
    <ApiKeysTable
      keys={keys.data}
      revokingId={revoke.isPending ? (revoke.variables ?? null) : null}
      onRevoke={confirmRevoke}
    />
  );
}

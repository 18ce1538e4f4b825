import type { PersonalToken, PersonalTokenCreated } from "@hangar/contract";
import { Anchor, Code, Skeleton, Stack, Text } from "@mantine/core";
import { IconKey } from "@tabler/icons-react";
import { useState } from "react";
import { errorMessage } from "../../../lib/api-client";
import { openConfirm } from "../../../lib/confirm-modal";
import { notifyError } from "../../../lib/notify";
import { EmptyPanel } from "../../../ui/empty-panel";
import { ErrorState } from "../../../ui/error-state";
import { usePersonalTokens, useRevokePersonalToken } from "../api";
import {
  Dim,
  dateFormat,
  momentFormat,
  ScopeBadges,
  type SecretColumn,
  SecretsTable,
  StateBadge,
} from "../components/secrets-table";
import { SecretDialog } from "../dialogs/api-key-secret-dialog";
import { tokenCurlExample } from "../scopes";
import { CreateTokenDialog } from "./create-token-dialog";

const REVOKED_WHY: Record<string, string> = { password_changed: "Password changed" };

const COLUMNS: SecretColumn<PersonalToken>[] = [
  { header: "Access", cell: (t) => <ScopeBadges scopes={t.scopes} all="full" />, wide: true },
  {
    header: "Last used",
    cell: (t) => <Dim text={t.last_used_at && momentFormat.format(new Date(t.last_used_at))} empty="Never" />,
  },
  { header: "Expires", cell: (t) => <Dim text={dateFormat.format(new Date(t.expires_at))} /> },
  {
    header: "State",
    // A block, not a flex column: a flex item's badge would shrink to nothing in the table's layout.
    cell: (t) => (
      <div>
        <StateBadge row={t} testId="personal-token" />
        {t.revoked_reason && <Dim text={REVOKED_WHY[t.revoked_reason] ?? null} />}
      </div>
    ),
  },
];

const DocsLink = () => (
  <Anchor href="/api/docs" target="_blank" rel="noopener" underline="always" style={{ whiteSpace: "nowrap" }}>
    Hangar API
  </Anchor>
);

/**
 * The account page's "Personal access tokens" (issue 36): tokens that act as you through the API in
 * all your workspaces. Created here (the secret shown once), listed, revoked after a confirmation.
 */
export function PersonalTokens() {
  const [created, setCreated] = useState<PersonalTokenCreated | null>(null);
  return (
    <Stack gap="md" data-testid="personal-tokens">
      <Text size="sm" c="dimmed">
        A token lets your own scripts call the <DocsLink /> as you, in every workspace you belong to and with your role
        there. It always expires; changing or resetting your password revokes them all.
      </Text>
      <CreateTokenDialog onCreated={setCreated} />
      <TokensList />
      <SecretDialog
        created={created}
        onClose={() => setCreated(null)}
        noun="Personal access token"
        testId="personal-token"
        example={{
          label: "Try it: list your workspaces",
          command: tokenCurlExample(created?.secret ?? "", window.location.origin),
        }}
      />
    </Stack>
  );
}

function TokensList() {
  const tokens = usePersonalTokens();
  const revoke = useRevokePersonalToken();

  const confirmRevoke = (token: PersonalToken) =>
    openConfirm({
      title: "Revoke personal access token",
      centered: true,
      children: (
        <Text size="sm">
          Revoke “{token.name}” ({token.prefix}…)? Everything using it is refused from now on. This cannot be undone.
        </Text>
      ),
      labels: { confirm: "Revoke token", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        revoke.mutate(token.id, { onError: (error) => notifyError(errorMessage(error, "Failed to revoke the token")) }),
    });

  if (tokens.isPending)
    return (
      <Stack gap="xs" role="status" aria-label="Loading personal access tokens">
        {[0, 1].map((i) => (
          <Skeleton key={i} height={48} />
        ))}
      </Stack>
    );
  if (tokens.isError)
    return (
      <ErrorState
        message={errorMessage(tokens.error, "Failed to fetch personal access tokens")}
        onRetry={() => tokens.refetch()}
        retrying={tokens.isFetching}
      />
    );
  if (tokens.data.length === 0)
    return (
      <EmptyPanel
        testId="personal-tokens-empty"
        icon={<IconKey size={28} />}
        title="No tokens yet"
        description="Create one for a script or a command-line tool that works with your assets. You can revoke it at any time."
      />
    );
  return (
    <SecretsTable
      rows={tokens.data}
      columns={COLUMNS}
      revokingId={revoke.isPending ? (revoke.variables ?? null) : null}
      onRevoke={confirmRevoke}
      testId="personal-token"
      noun="token"
      minWidth={600}
      nameNote={(t) => (
        <Text size="xs" c="dimmed">
          <Code fz="xs">{t.prefix}…</Code> · created {dateFormat.format(new Date(t.created_at))}
        </Text>
      )}
    />
  );
}

import { Alert, Paper, Skeleton, Stack, Switch, Text } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { errorMessage } from "../../../lib/api-client";
import { useSetWorkspaceSso, useWorkspaceSso } from "../api";

/**
 * ADMIN (issue 36): members must have signed in through single sign-on to open the workspace, and
 * invitations go only to addresses that can. Offered only when the server has SSO configured.
 */
export function WorkspaceSsoSetting({ workspaceId }: { workspaceId: string }) {
  const sso = useWorkspaceSso(workspaceId);
  const save = useSetWorkspaceSso(workspaceId);
  if (sso.isPending) return <Skeleton height={96} radius="lg" />;
  if (sso.isError)
    return (
      <Alert color="red" variant="light" title="Single sign-on">
        {errorMessage(sso.error, "Could not load the single sign-on setting")}
      </Alert>
    );
  const { require_sso, available, button_text, allowed_domains } = sso.data;
  const domains = allowed_domains.map((d) => `@${d}`).join(", ");
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="workspace-sso-setting">
      <Stack gap="sm">
        <Switch
          label="Require single sign-on"
          description={
            available
              ? `Members open this workspace only after signing in with “${button_text}”.${
                  domains ? ` Invitations go only to addresses at ${domains}.` : ""
                }`
              : "Single sign-on is not configured on this server (OIDC_ISSUER)."
          }
          checked={require_sso}
          disabled={!available || save.isPending}
          onChange={(e) => save.mutate(e.currentTarget.checked)}
          data-testid="require-sso-switch"
        />
        {save.isError && (
          <Alert color="red" variant="light" icon={<IconInfoCircle size={18} />} role="alert">
            <Text size="sm">{errorMessage(save.error, "Could not change the single sign-on setting")}</Text>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

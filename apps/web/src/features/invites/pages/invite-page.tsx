import { ACCOUNT_MESSAGES, type InviteInfo, type User } from "@hangar/contract";
import { Alert, Anchor, Button, Divider, Group, Skeleton, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconAlertCircle, IconUsersPlus } from "@tabler/icons-react";
import { useIsMutating } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from "../../../ui/role-badge";
import { AuthCard, authKeys, RegisterForm, useLogout, useMe } from "../../auth";
import { useAcceptInvite, useInviteInfo } from "../api";

function InviteSummary({ info }: { info: InviteInfo }) {
  return (
    <Group gap="md" wrap="nowrap" align="flex-start">
      <ThemeIcon size={44} radius="xl" variant="light" aria-hidden>
        <IconUsersPlus size={22} />
      </ThemeIcon>
      <Stack gap={4}>
        <Text data-testid="invite-summary">
          <strong>{info.invited_by}</strong> invited you to <strong>{info.workspace_name}</strong> as{" "}
          <strong>{ROLE_LABELS[info.role]}</strong>.
        </Text>
        <Text size="sm" c="dimmed">
          {ROLE_DESCRIPTIONS[info.role]}. The invitation expires on {new Date(info.expires_at).toLocaleDateString()}.
        </Text>
      </Stack>
    </Group>
  );
}

function SignedInAccept({ info, token, user }: { info: InviteInfo; token: string; user: User }) {
  const navigate = useNavigate();
  const accept = useAcceptInvite();
  const logout = useLogout();
  const otherAccount = user.email.toLowerCase() !== info.email.toLowerCase();
  return (
    <Stack gap="md">
      {otherAccount && (
        <Alert color="yellow" variant="light" role="status">
          This invitation was sent to {info.email}, but you are signed in as {user.email}.{" "}
          <Anchor component="button" type="button" inherit onClick={() => logout.mutate()}>
            Sign out
          </Anchor>{" "}
          to use another account.
        </Alert>
      )}
      {accept.isError && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {errorMessage(accept.error, ACCOUNT_MESSAGES.acceptInvite)}
        </Alert>
      )}
      <Button
        fullWidth
        loading={accept.isPending}
        onClick={() => accept.mutate(token, { onSuccess: ({ data }) => navigate(`/w/${data.id}`, { replace: true }) })}
      >
        Accept invitation
      </Button>
    </Stack>
  );
}

export function InvitePage() {
  const { token = "" } = useParams();
  const navigate = useNavigate();
  const me = useMe();
  const info = useInviteInfo(token);
  // An invited sign-up signs the user in before it finishes; keep the form mounted until it navigates.
  const registering = useIsMutating({ mutationKey: authKeys.register() }) > 0;
  const here = `/a/invite/${encodeURIComponent(token)}`;

  if (info.isPending || me.isPending) {
    return (
      <AuthCard title="Join a workspace" testId="invite-card">
        <Stack gap="sm" role="status" aria-label="Loading invitation">
          <Skeleton height={16} />
          <Skeleton height={16} width="70%" />
          <Skeleton height={36} mt="sm" />
        </Stack>
      </AuthCard>
    );
  }

  if (info.isError) {
    return (
      <AuthCard title="Join a workspace" testId="invite-card">
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={18} />}
          role="alert"
          title="Invitation unavailable"
        >
          {errorMessage(info.error, ACCOUNT_MESSAGES.inviteDetails)}
        </Alert>
        <Text size="sm" c="dimmed">
          Invitations expire after a week and work once. Ask the person who invited you for a new one.
        </Text>
        <Button component={Link} to={me.data ? "/w" : "/"} variant="light">
          {me.data ? "Go to your workspaces" : "Go home"}
        </Button>
      </AuthCard>
    );
  }

  const invite = info.data;
  return (
    <AuthCard title={`Join ${invite.workspace_name}`} testId="invite-card">
      <InviteSummary info={invite} />
      <Divider />
      {me.data && !registering ? (
        <SignedInAccept info={invite} token={token} user={me.data} />
      ) : invite.account_exists ? (
        <Stack gap="sm">
          <Text size="sm">
            You already have a Hangar account for <strong>{invite.email}</strong>. Sign in to accept.
          </Text>
          <Button
            component={Link}
            to={`/a/login?next=${encodeURIComponent(here)}&email=${encodeURIComponent(invite.email)}`}
            fullWidth
          >
            Sign in to accept
          </Button>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Create your account to join. Your e-mail is confirmed by the invitation.
          </Text>
          <RegisterForm
            inviteToken={token}
            fixedEmail={invite.email}
            onRegistered={(answer, email) => {
              if (answer.signed_in) navigate(`/w/${invite.workspace_id}`, { replace: true });
              else navigate(`/a/awaiting-verification?email=${encodeURIComponent(email)}`);
            }}
          />
          <Text size="sm" c="dimmed" ta="center">
            Already registered?{" "}
            <Anchor component={Link} to={`/a/login?next=${encodeURIComponent(here)}`}>
              Sign in
            </Anchor>
          </Text>
        </Stack>
      )}
    </AuthCard>
  );
}

import { ACCOUNT_MESSAGES } from "@hangar/contract";
import { Alert, Button, Group, Loader, Stack, Text } from "@mantine/core";
import { IconAlertCircle, IconCircleCheck } from "@tabler/icons-react";
import { useEffect, useRef } from "react";
import { Link, useParams } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { useMe, useVerifyEmailChange } from "../api";
import { AuthCard } from "../components/auth-card";

export function VerifyEmailChangePage() {
  const { token = "" } = useParams();
  const me = useMe();
  const verify = useVerifyEmailChange();
  const started = useRef(false);

  useEffect(() => {
    // Single-use token: guard against StrictMode's second effect run.
    if (started.current) return;
    started.current = true;
    verify.mutate(token);
  }, [token, verify]);

  return (
    <AuthCard title="Confirm your new e-mail" testId="verify-email-change-card">
      {(verify.isPending || verify.isIdle) && (
        <Group gap="sm" role="status" aria-live="polite">
          <Loader size="sm" />
          <Text size="sm">Confirming your new e-mail address…</Text>
        </Group>
      )}
      {verify.isSuccess && (
        <Stack gap="md">
          <Alert
            color="green"
            variant="light"
            icon={<IconCircleCheck size={18} />}
            role="status"
            title="E-mail changed"
          >
            Your account now uses {verify.data.data.email}.
          </Alert>
          {me.data ? (
            <Button component={Link} to="/a/settings">
              Back to account settings
            </Button>
          ) : (
            <Button component={Link} to={`/a/login?email=${encodeURIComponent(verify.data.data.email)}`}>
              Sign in
            </Button>
          )}
        </Stack>
      )}
      {verify.isError && (
        <Stack gap="md">
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} />}
            role="alert"
            title="Could not confirm"
          >
            {errorMessage(verify.error, ACCOUNT_MESSAGES.verifyEmailChange)}
          </Alert>
          <Button component={Link} to={me.data ? "/a/settings" : "/a/login"} variant="light">
            {me.data ? "Back to account settings" : "Go to sign in"}
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}

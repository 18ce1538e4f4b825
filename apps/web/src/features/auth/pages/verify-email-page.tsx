import { ACCOUNT_MESSAGES } from "@hangar/contract";
import { Alert, Anchor, Button, Group, Loader, Stack, Text } from "@mantine/core";
import { IconAlertCircle, IconCircleCheck } from "@tabler/icons-react";
import { useEffect, useRef } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { notifySuccess } from "../../../lib/notify";
import { useVerifyEmail } from "../api";
import { AuthCard } from "../components/auth-card";

const CONTINUE_DELAY_MS = 1200;

/** Verifies on arrival; a verified user is signed in and continues to /w (their workspace, or /w/new). */
export function VerifyEmailPage() {
  const { token = "" } = useParams();
  const navigate = useNavigate();
  const verify = useVerifyEmail();
  const started = useRef(false);

  useEffect(() => {
    // Tokens are single-use: never send twice (StrictMode runs effects twice in development).
    if (started.current) return;
    started.current = true;
    verify.mutate(token, { onSuccess: () => notifySuccess("E-mail verified") });
  }, [token, verify]);

  useEffect(() => {
    if (!verify.isSuccess) return;
    const timer = window.setTimeout(() => navigate("/w", { replace: true }), CONTINUE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [verify.isSuccess, navigate]);

  return (
    <AuthCard title="Verify your e-mail" testId="verify-email-card">
      {(verify.isPending || verify.isIdle) && (
        <Group gap="sm" role="status" aria-live="polite">
          <Loader size="sm" />
          <Text size="sm">Verifying your e-mail address…</Text>
        </Group>
      )}
      {verify.isSuccess && (
        <Stack gap="md">
          <Alert
            color="green"
            variant="light"
            icon={<IconCircleCheck size={18} />}
            role="status"
            title="E-mail verified"
          >
            Thanks, {verify.data.data.first_name || verify.data.data.email}. Taking you to your workspace…
          </Alert>
          <Button onClick={() => navigate("/w", { replace: true })}>Continue</Button>
        </Stack>
      )}
      {verify.isError && (
        <Stack gap="md">
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} />}
            role="alert"
            title="Verification failed"
          >
            {errorMessage(verify.error, ACCOUNT_MESSAGES.verifyEmail)}
          </Alert>
          <Text size="sm" c="dimmed">
            The link may have expired or been used already.{" "}
            <Anchor component={Link} to="/a/awaiting-verification" inherit>
              Send a new verification e-mail
            </Anchor>{" "}
            or{" "}
            <Anchor component={Link} to="/a/login" inherit>
              sign in
            </Anchor>
            .
          </Text>
        </Stack>
      )}
    </AuthCard>
  );
}

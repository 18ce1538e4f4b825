import { ACCOUNT_MESSAGES } from "@hangar/contract";
import { Anchor, Button, Text } from "@mantine/core";
import { useEffect } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { notifySuccess } from "../../../lib/notify";
import { useVerifyEmail } from "../api";
import { AuthCard } from "../components/auth-card";
import { TokenStatus, useOnce } from "../components/token-status";

const CONTINUE_DELAY_MS = 1200;

/** Verifies on arrival; a verified user is signed in and continues to /w (their workspace, or /w/new). */
export function VerifyEmailPage() {
  const { token = "" } = useParams();
  const navigate = useNavigate();
  const verify = useVerifyEmail();
  useOnce(() => verify.mutate(token, { onSuccess: () => notifySuccess("E-mail verified") }));

  useEffect(() => {
    if (!verify.isSuccess) return;
    const timer = window.setTimeout(() => navigate("/w", { replace: true }), CONTINUE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [verify.isSuccess, navigate]);

  return (
    <AuthCard title="Verify your e-mail" testId="verify-email-card">
      <TokenStatus
        phase={verify}
        pendingText="Verifying your e-mail address…"
        successTitle="E-mail verified"
        success={() => (
          <>Thanks, {verify.data?.data.first_name || verify.data?.data.email}. Taking you to your workspace…</>
        )}
        successActions={() => <Button onClick={() => navigate("/w", { replace: true })}>Continue</Button>}
        errorTitle="Verification failed"
        error={errorMessage(verify.error, ACCOUNT_MESSAGES.verifyEmail)}
        errorActions={
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
        }
      />
    </AuthCard>
  );
}

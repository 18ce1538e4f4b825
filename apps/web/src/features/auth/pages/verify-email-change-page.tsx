import { ACCOUNT_MESSAGES } from "@hangar/contract";
import { Button } from "@mantine/core";
import { Link, useParams } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { useMe, useVerifyEmailChange } from "../api";
import { AuthCard } from "../components/auth-card";
import { TokenStatus, useOnce } from "../components/token-status";

export function VerifyEmailChangePage() {
  const { token = "" } = useParams();
  const me = useMe();
  const verify = useVerifyEmailChange();
  useOnce(() => verify.mutate(token));
  const email = verify.data?.data.email ?? "";

  return (
    <AuthCard title="Confirm your new e-mail" testId="verify-email-change-card">
      <TokenStatus
        phase={verify}
        pendingText="Confirming your new e-mail address…"
        successTitle="E-mail changed"
        success={() => <>Your account now uses {email}.</>}
        successActions={() =>
          me.data ? (
            <Button component={Link} to="/a/settings">
              Back to account settings
            </Button>
          ) : (
            <Button component={Link} to={`/a/login?email=${encodeURIComponent(email)}`}>
              Sign in
            </Button>
          )
        }
        errorTitle="Could not confirm"
        error={errorMessage(verify.error, ACCOUNT_MESSAGES.verifyEmailChange)}
        errorActions={
          <Button component={Link} to={me.data ? "/a/settings" : "/a/login"} variant="light">
            {me.data ? "Back to account settings" : "Go to sign in"}
          </Button>
        }
      />
    </AuthCard>
  );
}

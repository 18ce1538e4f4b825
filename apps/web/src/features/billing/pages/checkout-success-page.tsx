import { Alert, Button, Loader, Paper, Stack, Text, Title } from "@mantine/core";
import { useEffect, useState } from "react";
import { Link, Navigate, useSearchParams } from "react-router-dom";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { usePageTitle } from "../../../lib/page-title";
import { CenteredLoader } from "../../../ui/centered-loader";
import { useCheckoutSession, useSessionOwner } from "../api";

/** After this long without the provider's confirmation, the page explains the delay (and keeps waiting). */
const SLOW_MS = 15_000;

/**
 * /w/:ws/subscription/success?session_id=: waits until the provider's webhook made the subscription
 * active here (the redirect alone proves nothing), then says so.
 */
export function CheckoutSuccessPage() {
  usePageTitle("Subscription");
  const workspace = useCurrentWorkspace();
  const [search] = useSearchParams();
  const sessionId = search.get("session_id") ?? "";
  const session = useCheckoutSession(workspace.id, sessionId);
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setSlow(true), SLOW_MS);
    return () => clearTimeout(t);
  }, []);
  const back = `/w/${workspace.id}/settings/subscription`;
  const state = session.data?.state;

  return (
    <Paper withBorder radius="lg" p="lg" maw={560} data-testid="checkout-success">
      <Stack gap="md" align="flex-start">
        {!sessionId.startsWith("cs_") || session.isError ? (
          <Alert color="red" title="Unknown checkout">
            {session.isError
              ? errorMessage(session.error, "Could not check the payment")
              : "This link names no checkout."}
          </Alert>
        ) : state === "active" ? (
          <>
            <Title order={1} size="h3">
              Your subscription is active
            </Title>
            <Text data-testid="success-state">The payment is confirmed and the new plan's limits apply now.</Text>
          </>
        ) : state === "expired" ? (
          <Alert color="orange" title="This checkout expired">
            No payment was confirmed for it. Start again from the subscription page.
          </Alert>
        ) : (
          <>
            <Title order={1} size="h3">
              Confirming your payment…
            </Title>
            <Loader size="sm" />
            <Text size="sm" c="dimmed" data-testid="success-state">
              {slow
                ? "The payment provider has not confirmed the payment to us yet. This usually takes seconds but can take a few minutes; this page keeps checking, and you can leave it: the plan changes as soon as the confirmation arrives."
                : "Waiting for the payment provider to confirm the payment."}
            </Text>
          </>
        )}
        <Button component={Link} to={back} variant="default">
          Go to the subscription
        </Button>
      </Stack>
    </Paper>
  );
}

/** /subscription/success?session_id= (a checkout started outside a workspace's pages): finds its workspace. */
export function AccountCheckoutSuccessPage() {
  const [search] = useSearchParams();
  const sessionId = search.get("session_id") ?? "";
  const owner = useSessionOwner(sessionId);
  if (owner.data) {
    return <Navigate replace to={`/w/${owner.data.workspace_id}/subscription/success?session_id=${sessionId}`} />;
  }
  if (owner.isPending && sessionId.startsWith("cs_")) return <CenteredLoader label="Finding your checkout…" />;
  return (
    <Paper withBorder radius="lg" p="lg" maw={560} m="lg">
      <Alert color="red" title="Unknown checkout">
        {owner.isError ? errorMessage(owner.error, "Could not find this checkout") : "This link names no checkout."}
      </Alert>
      <Button component={Link} to="/w" mt="md" variant="default">
        Go to your workspaces
      </Button>
    </Paper>
  );
}

import { formatBytes } from "@hangar/contract";
import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from "@mantine/core";
import { Link, useSearchParams } from "react-router-dom";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { usePageTitle } from "../../../lib/page-title";
import { useBilling, useStartCheckout } from "../api";
import { asInterval, formatMoney } from "../format";

/** /w/:ws/checkout?plan=&interval= (ADMIN): the plan, its price and what changes, then the provider's page. */
export function CheckoutPage() {
  usePageTitle("Checkout");
  const workspace = useCurrentWorkspace();
  const [search] = useSearchParams();
  const planKey = search.get("plan") ?? "";
  const interval = asInterval(search.get("interval")) ?? "month";
  const billing = useBilling(workspace.id);
  const checkout = useStartCheckout(workspace.id);
  const back = `/w/${workspace.id}/settings/subscription`;

  if (billing.isPending) return <Skeleton height={240} radius="lg" />;
  const state = billing.data;
  const plan = state?.plans.find((p) => p.key === planKey);
  const price = plan?.prices[interval];
  const problem = billing.isError
    ? errorMessage(billing.error, "Could not load the subscription")
    : !state?.enabled
      ? "Billing is off on this server: nothing is limited, there is nothing to buy."
      : !state.can_manage
        ? "Only admins can change the subscription."
        : !plan || !price
          ? `There is no ${interval}ly price for the plan "${planKey}".`
          : null;

  return (
    <Paper withBorder radius="lg" p="lg" maw={560} data-testid="checkout-page">
      <Stack gap="md">
        <Title order={1} size="h3">
          {plan ? `Upgrade to ${plan.name}` : "Checkout"}
        </Title>
        {problem || !plan || !price || !state ? (
          <Alert color="red">{problem}</Alert>
        ) : (
          <>
            <Text size="lg" fw={600} data-testid="checkout-price">
              {formatMoney(price.amount, price.currency)} per {interval}
            </Text>
            <Text size="sm">
              Storage {formatBytes(state.plan.limits.storage_bytes)} → {formatBytes(plan.limits.storage_bytes)} · seats{" "}
              {state.plan.limits.seats} → {plan.limits.seats} · largest file{" "}
              {formatBytes(state.plan.limits.max_upload_bytes)} → {formatBytes(plan.limits.max_upload_bytes)}
            </Text>
            <Text size="sm" c="dimmed">
              You pay on the payment provider's page; the new limits apply as soon as it confirms the payment.
            </Text>
            {checkout.isError && (
              <Alert color="red">{errorMessage(checkout.error, "Could not start the checkout")}</Alert>
            )}
          </>
        )}
        <Group>
          {!problem && (
            <Button
              loading={checkout.isPending || checkout.isSuccess}
              onClick={() => checkout.mutate({ plan: planKey, interval })}
            >
              Continue to payment
            </Button>
          )}
          <Button component={Link} to={back} variant="default">
            Back to the subscription
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

import { type BillingInterval, type BillingState, formatBytes, type Plan } from "@hangar/contract";
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { IconAlertTriangle, IconCreditCard } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { EmptyPanel } from "../../../ui/empty-panel";
import { useOpenPortal, useSubscriptionAction } from "../api";
import { formatDate, formatMoney, STATUS_LABEL } from "../format";
import { UsageBars } from "./usage-bars";

const LIVE = new Set(["active", "trialing", "past_due", "unpaid"]);

function PlanCard({
  plan,
  interval,
  current,
  action,
}: {
  plan: Plan;
  interval: BillingInterval;
  current: boolean;
  action: React.ReactNode;
}) {
  const price = plan.prices[interval];
  return (
    <Card withBorder radius="md" data-testid={`plan-${plan.key}`}>
      <Stack gap={6}>
        <Group justify="space-between">
          <Text fw={600}>{plan.name}</Text>
          {current && <Badge variant="light">Current</Badge>}
        </Group>
        <Text size="sm">{price ? `${formatMoney(price.amount, price.currency)} / ${interval}` : "Free"}</Text>
        <Text size="xs" c="dimmed">
          {formatBytes(plan.limits.storage_bytes)} storage · {plan.limits.seats} seats · files up to{" "}
          {formatBytes(plan.limits.max_upload_bytes)}
        </Text>
        {action}
      </Stack>
    </Card>
  );
}

/** Settings → Subscription: the plan, its state, usage and (for ADMINs) what can be changed. */
export function SubscriptionPanel({ workspaceId, state }: { workspaceId: string; state: BillingState }) {
  const [interval, setInterval] = useState<BillingInterval>(state.interval ?? "month");
  const action = useSubscriptionAction(workspaceId);
  const portal = useOpenPortal(workspaceId);
  const base = `/w/${workspaceId}`;

  if (!state.enabled) {
    return (
      <Stack gap="lg" data-testid="settings-subscription">
        <EmptyPanel
          icon={<IconCreditCard size={28} />}
          title="Billing is off on this server"
          description="No payment provider is configured, so nothing is limited: upload and invite as much as your server holds."
        />
        <Paper withBorder radius="lg" p="lg">
          <UsageBars state={state} />
        </Paper>
      </Stack>
    );
  }

  const live = LIVE.has(state.status) && state.subscribed_plan !== null;
  const paidPlans = state.plans.filter((p) => p.prices.month || p.prices.year);
  const run = (kind: "cancel" | "resume") =>
    action.mutate(
      { kind },
      {
        onSuccess: () =>
          notifySuccess(
            kind === "cancel" ? "The subscription ends at the end of this period." : "The subscription continues.",
          ),
        onError: (e) => notifyError(errorMessage(e, "Could not change the subscription")),
      },
    );

  return (
    <Stack gap="lg" data-testid="settings-subscription">
      {/* ADMINs see the banner above every page; the others see it here. */}
      {!state.can_manage && state.status === "past_due" && state.limits_until && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Payment failed">
          The last payment failed. Update the card before {formatDate(state.limits_until)}, or the {state.plan.name}{" "}
          plan's limits return to the free plan's then. Nothing is deleted.
        </Alert>
      )}
      <Paper withBorder radius="lg" p="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start">
            <Stack gap={2}>
              <Title order={2} size="h4">
                {state.plan.name} plan
              </Title>
              <Text size="sm" c="dimmed" data-testid="subscription-renewal">
                {live && state.current_period_end
                  ? state.cancel_at_period_end
                    ? `Ends on ${formatDate(state.current_period_end)}`
                    : `Renews on ${formatDate(state.current_period_end)} (${state.interval}ly)`
                  : "No paid subscription"}
              </Text>
            </Stack>
            <Badge
              data-testid="subscription-status"
              color={state.status === "past_due" ? "red" : live ? "green" : "gray"}
            >
              {STATUS_LABEL[state.status] ?? state.status}
            </Badge>
          </Group>
          <UsageBars state={state} />
          {state.can_manage && live && (
            <Group gap="sm">
              <Button
                variant="default"
                loading={portal.isPending}
                onClick={() =>
                  portal.mutate(undefined, {
                    onError: (e) => notifyError(errorMessage(e, "Could not open the billing portal")),
                  })
                }
              >
                Invoices and card
              </Button>
              {state.cancel_at_period_end ? (
                <Button loading={action.isPending} onClick={() => run("resume")}>
                  Resume subscription
                </Button>
              ) : (
                <Button color="red" variant="light" loading={action.isPending} onClick={() => run("cancel")}>
                  Cancel at period end
                </Button>
              )}
            </Group>
          )}
          {!state.can_manage && (
            <Text size="sm" c="dimmed">
              Only admins can change the subscription.
            </Text>
          )}
        </Stack>
      </Paper>
      <Paper withBorder radius="lg" p="lg">
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={3} size="h5">
              Plans
            </Title>
            <SegmentedControl
              size="xs"
              value={interval}
              onChange={(v) => setInterval(v as BillingInterval)}
              data={[
                { value: "month", label: "Monthly" },
                { value: "year", label: "Yearly" },
              ]}
            />
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {state.plans.map((plan) => {
              const current = plan.key === state.plan.key;
              const priced = !!plan.prices[interval];
              const currentPaid = live && plan.key === state.subscribed_plan && interval === state.interval;
              let button: React.ReactNode = null;
              if (state.can_manage && priced && !currentPaid) {
                const to = live
                  ? `${base}/subscription/change?plan=${plan.key}&interval=${interval}`
                  : `${base}/checkout?plan=${plan.key}&interval=${interval}`;
                button = (
                  <Button component={Link} to={to} size="xs" mt={4} data-testid={`choose-${plan.key}`}>
                    {live ? "Change to this plan" : "Upgrade"}
                  </Button>
                );
              }
              return <PlanCard key={plan.key} plan={plan} interval={interval} current={current} action={button} />;
            })}
          </SimpleGrid>
          {paidPlans.length === 0 && (
            <Text size="sm" c="dimmed">
              The payment provider has no prices for the paid plans yet.
            </Text>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

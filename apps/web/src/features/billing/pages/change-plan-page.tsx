import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from "@mantine/core";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { notifySuccess } from "../../../lib/notify";
import { usePageTitle } from "../../../lib/page-title";
import { useBilling, usePreviewChange, useSubscriptionAction } from "../api";
import { asInterval, formatDate, formatMoney } from "../format";

/** /w/:ws/subscription/change?plan= (ADMIN): the provider's proration preview, then the change. */
export function ChangePlanPage() {
  usePageTitle("Change plan");
  const workspace = useCurrentWorkspace();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const planKey = search.get("plan") ?? "";
  const billing = useBilling(workspace.id);
  const interval = asInterval(search.get("interval")) ?? billing.data?.interval ?? ("month" as const);
  const ready = !!billing.data?.can_manage && !!billing.data.subscribed_plan;
  const preview = usePreviewChange(workspace.id, planKey, interval, ready);
  const change = useSubscriptionAction(workspace.id);
  const back = `/w/${workspace.id}/settings/subscription`;
  const plan = billing.data?.plans.find((p) => p.key === planKey);

  if (billing.isPending) return <Skeleton height={240} radius="lg" />;
  const problem = billing.isError
    ? errorMessage(billing.error, "Could not load the subscription")
    : !billing.data?.can_manage
      ? "Only admins can change the subscription."
      : !billing.data.subscribed_plan
        ? "There is no subscription to change: start one from the subscription page."
        : preview.isError
          ? errorMessage(preview.error, "Could not preview the change")
          : null;

  const confirm = () => {
    if (!preview.data) return;
    change.mutate(
      { kind: "change", plan: planKey, interval, proration_date: preview.data.proration_date },
      {
        onSuccess: () => {
          notifySuccess(`The workspace is on the ${plan?.name ?? planKey} plan now.`);
          navigate(back);
        },
      },
    );
  };

  return (
    <Paper withBorder radius="lg" p="lg" maw={560} data-testid="change-plan-page">
      <Stack gap="md">
        <Title order={1} size="h3">
          Change to {plan?.name ?? planKey} ({interval}ly)
        </Title>
        {problem ? (
          <Alert color="red">{problem}</Alert>
        ) : !preview.data ? (
          <Skeleton height={60} />
        ) : (
          <Stack gap={4} data-testid="proration-preview">
            <Text>
              Due now: <b>{formatMoney(preview.data.amount_due_now, preview.data.currency)}</b> (the rest of this
              period, prorated)
            </Text>
            <Text>
              Next invoice: {formatMoney(preview.data.next_invoice_amount, preview.data.currency)} on{" "}
              {formatDate(preview.data.next_invoice_at)}
            </Text>
          </Stack>
        )}
        {change.isError && <Alert color="red">{errorMessage(change.error, "Could not change the plan")}</Alert>}
        <Group>
          {!problem && (
            <Button disabled={!preview.data} loading={change.isPending} onClick={confirm}>
              Confirm the change
            </Button>
          )}
          <Button component={Link} to={back} variant="default">
            Keep the current plan
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

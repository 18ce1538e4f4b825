import { DECISION_LABELS, type ReviewDecisionKind, STATUS_LABELS } from "@hangar/contract";
import { Badge, Box, Button, Group, Menu, Modal, Stack, Text, Textarea, Tooltip } from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import { IconArrowRight, IconCheck, IconChevronUp } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { relativeTime } from "../../../entities/format";
import { asksForNote, DECISION_ACTIONS, type DecisionView, STATUS_COLOURS } from "./decision-state";

/** What the bar needs: the state, the decision being sent, and what deciding and "next" do. */
export interface DecisionBarModel {
  view: DecisionView;
  /** The decision on its way (its button spins, the others wait). */
  pending: ReviewDecisionKind | null;
  /** Resolves once recorded (the note dialog closes then), rejects when refused (it stays, note kept). */
  decide(decision: ReviewDecisionKind, note: string): Promise<unknown>;
  /** Opens the next asset awaiting the reviewer (view.nextAssetId). */
  next(): void;
}

const COLOURS: Record<ReviewDecisionKind, string> = STATUS_COLOURS;
const NOTHING_NEXT = "Nothing else in this review awaits your decision";
/** The width the four buttons and "next" need on one line. */
const WIDE_ENOUGH = 760;

/**
 * The viewer's decision bar (issue 30): the review and the asset's status in it, the reviewer's own
 * decision on this version, the four decisions (a note for the last three) and "Next asset in this
 * review". `compact` (a phone): Approve stays a button, the other three are a menu, "next" an arrow.
 */
export function DecisionBar({ model, compact: phone }: { model: DecisionBarModel; compact: boolean }) {
  const { view, pending } = model;
  // A narrow preview column (a tablet, or a desktop with the sidebar open on a small window) is a phone here.
  const { ref, width } = useElementSize();
  const compact = phone || (width > 0 && width < WIDE_ENOUGH);
  const [asking, setAsking] = useState<ReviewDecisionKind | null>(null);
  const [note, setNote] = useState("");
  const busy = pending !== null;
  const choose = (decision: ReviewDecisionKind) => {
    if (!asksForNote(decision)) return void model.decide(decision, "").catch(() => undefined);
    setNote("");
    setAsking(decision);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!asking) return;
    model.decide(asking, note).then(
      () => setAsking(null),
      () => undefined,
    );
  };
  const action = DECISION_ACTIONS.find((a) => a.decision === asking);
  const button = (decision: ReviewDecisionKind, label: string) => {
    const chosen = view.mine?.decision === decision;
    return (
      <Button
        key={decision}
        size="compact-sm"
        color={COLOURS[decision]}
        variant={chosen ? "filled" : "light"}
        leftSection={chosen ? <IconCheck size={14} /> : undefined}
        aria-pressed={chosen}
        loading={pending === decision}
        disabled={busy && pending !== decision}
        onClick={() => choose(decision)}
        data-testid={`decide-${decision}`}
      >
        {label}
      </Button>
    );
  };
  const [approve, ...others] = DECISION_ACTIONS;

  const nextButton = (
    <Tooltip
      label={view.nextAssetId ? "Next asset in this review" : NOTHING_NEXT}
      disabled={!compact && !!view.nextAssetId}
    >
      <Button
        size="compact-sm"
        variant="subtle"
        color="gray.0"
        rightSection={<IconArrowRight size={14} />}
        disabled={!view.nextAssetId}
        onClick={model.next}
        aria-label={compact ? "Next asset in this review" : undefined}
        data-testid="review-next"
      >
        {compact ? "Next" : "Next asset in this review"}
      </Button>
    </Tooltip>
  );

  return (
    <Box
      ref={ref}
      role="region"
      aria-label="Your decision"
      data-testid="decision-bar"
      data-status={view.status}
      data-mine={view.mine?.decision ?? "pending"}
      px="md"
      py={8}
      style={{
        flexShrink: 0,
        borderTop: "1px solid var(--mantine-color-dark-4)",
        background: "var(--mantine-color-dark-7)",
      }}
    >
      {/* The status first; the buttons beside it when both fit, else on their own line below. */}
      <Group gap="xs" justify="space-between" wrap="wrap" align="center">
        <Stack gap={2} style={{ minWidth: 0, flex: compact ? "1 1 100%" : "1 1 260px" }}>
          <Text size="xs" c="gray.5" truncate="end">
            Review · <span data-testid="decision-review-title">{view.reviewTitle}</span>
          </Text>
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <Badge size="sm" variant="light" color={STATUS_COLOURS[view.status]} style={{ flexShrink: 0 }}>
              {STATUS_LABELS[view.status]}
            </Badge>
            <Text size="xs" c="gray.3" lineClamp={2} data-testid="decision-mine">
              {view.mine
                ? `You: ${DECISION_LABELS[view.mine.decision]} · ${relativeTime(view.mine.decidedAt)}`
                : view.awaitingMe
                  ? "Awaiting your decision"
                  : "You have not decided"}
              {view.waitingCount > 0 && !compact ? ` · ${view.waitingCount} left to decide` : ""}
            </Text>
          </Group>
        </Stack>
        <Group
          gap={6}
          wrap={compact ? "wrap" : "nowrap"}
          justify="flex-end"
          style={{ flex: compact ? "1 1 100%" : "0 0 auto", marginLeft: "auto" }}
        >
          {view.blocked ? (
            <Text size="sm" c="gray.4" data-testid="decision-blocked">
              {view.blocked}
            </Text>
          ) : compact ? (
            <>
              {approve && button(approve.decision, approve.label)}
              <Menu position="top-end" withinPortal>
                <Menu.Target>
                  <Button
                    size="compact-sm"
                    variant={others.some((o) => o.decision === view.mine?.decision) ? "filled" : "light"}
                    color={
                      others.find((o) => o.decision === view.mine?.decision) ? COLOURS[view.mine!.decision] : "gray"
                    }
                    rightSection={<IconChevronUp size={14} />}
                    loading={pending !== null && pending !== "approved"}
                    disabled={busy}
                    data-testid="decide-more"
                  >
                    {others.find((o) => o.decision === view.mine?.decision)?.label ?? "Other decision"}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {others.map((o) => (
                    <Menu.Item
                      key={o.decision}
                      color={COLOURS[o.decision]}
                      leftSection={view.mine?.decision === o.decision ? <IconCheck size={14} /> : undefined}
                      onClick={() => choose(o.decision)}
                      data-testid={`decide-${o.decision}`}
                    >
                      {o.label}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
              <Box style={{ flex: 1 }} />
              {nextButton}
            </>
          ) : (
            DECISION_ACTIONS.map((a) => button(a.decision, a.label))
          )}
          {(!compact || view.blocked) && nextButton}
        </Group>
      </Group>

      <Modal
        opened={asking !== null}
        onClose={() => !busy && setAsking(null)}
        title={action?.label}
        centered
        data-escape-local
        data-testid="decision-note-dialog"
      >
        <form onSubmit={submit}>
          <Stack gap="md" data-escape-local>
            <Textarea
              label="Note"
              description="Optional. It is added as a comment on this version, under your name."
              placeholder={asking === "approved_with_changes" ? "What should still change?" : "What needs to change?"}
              autosize
              minRows={3}
              maxRows={10}
              maxLength={10_000}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
              data-autofocus
              data-testid="decision-note"
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setAsking(null)} disabled={busy}>
                Cancel
              </Button>
              <Button
                type="submit"
                color={asking ? COLOURS[asking] : undefined}
                loading={busy}
                data-testid="decision-note-submit"
              >
                {action?.label}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Box>
  );
}

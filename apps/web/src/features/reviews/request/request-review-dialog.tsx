import type { Member, Review } from "@hangar/contract";
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { IconAlertTriangle, IconPlus, IconTrash } from "@tabler/icons-react";
import { useEffect, useMemo, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useCreateReview, useUpdateReview } from "../../../entities/review";
import { errorMessage, isApiError } from "../../../lib/api-client";
import { notifySuccess, notifySuccessWithAction } from "../../../lib/notify";
import { useMembers } from "../../members";
import {
  buildReviewBody,
  buildUpdateBody,
  type DraftProblem,
  draftFromReview,
  draftProblems,
  emptyDraft,
  entryId,
  localInput,
  newStage,
  type RequestDraft,
  type ReviewTarget,
  type StageDraft,
} from "./payload";
import { ReviewersInput } from "./reviewers-input";

const MAX_STAGES = 10;

/** A refused body's field messages (422) other than its detail. */
const fieldMessages = (error: unknown): string[] =>
  isApiError(error) ? [...new Set(error.errors.map((e) => e.message))].filter((m) => m !== error.detail) : [];
const NO_MEMBERS: Member[] = [];

/** `datetime-local`'s value for now (local time), the earliest due date offered. */
const localNow = () => localInput(new Date().toISOString());

/**
 * "Request review" (issue 30): a title, a message, a due date, one or more stages run one after
 * another (each with its reviewers — members or outsiders' addresses — and its rule, all or any),
 * and whether approved assets lock. For chosen assets (the bulk bar, the viewer) or a board's assets
 * (its menu). Mistakes are named under their fields; what the server refuses shows as its `detail`.
 */
export function RequestReviewDialog({
  workspaceId,
  opened,
  onClose,
  target,
  editing = null,
  defaultTitle = "",
  subject,
}: {
  workspaceId: string;
  opened: boolean;
  onClose(): void;
  /** What a new request is for (absent when editing). */
  target?: ReviewTarget;
  /** A review to change instead (the requester or an ADMIN): its words, due date, stages, lock. */
  editing?: Review | null;
  defaultTitle?: string;
  /** What is reviewed, in words ("3 assets", "the board “Spring”"). */
  subject: string;
}) {
  const navigate = useNavigate();
  const members = useMembers(workspaceId, opened);
  const create = useCreateReview(workspaceId);
  const update = useUpdateReview(workspaceId, editing?.id ?? "");
  const mutation = editing ? update : create;
  const initial = () => (editing ? draftFromReview(editing) : emptyDraft(defaultTitle));
  const keptDue = editing?.due_at ? localInput(editing.due_at) : undefined;
  const [draft, setDraft] = useState<RequestDraft>(initial);
  // After a first try, mistakes are named (and cleared) as the draft changes.
  const [tried, setTried] = useState(false);

  // Each opening starts a new request (the draft set as it opens, not an effect later).
  const [wasOpen, setWasOpen] = useState(opened);
  if (opened !== wasOpen) {
    setWasOpen(opened);
    if (opened) {
      setDraft(initial());
      setTried(false);
    }
  }
  const resetMutation = mutation.reset;
  useEffect(() => {
    if (opened) resetMutation();
  }, [opened, resetMutation]);

  const set = (patch: Partial<RequestDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setStage = (index: number, patch: Partial<StageDraft>) =>
    setDraft((d) => ({ ...d, stages: d.stages.map((s, i) => (i === index ? { ...s, ...patch } : s)) }));
  const problems = tried ? draftProblems(draft, new Date(), keptDue) : [];
  const problem = (field: DraftProblem["field"], stage?: number) =>
    problems.find((p) => p.field === field && p.stage === stage)?.message ?? null;

  const submit = () => {
    setTried(true);
    if (draftProblems(draft, new Date(), keptDue).length) return;
    if (editing) {
      update.mutate(buildUpdateBody(draft, keptDue), {
        onSuccess: () => {
          notifySuccess("Review updated");
          onClose();
        },
      });
      return;
    }
    if (!target) return;
    create.mutate(buildReviewBody(draft, target), {
      onSuccess: (review) => {
        notifySuccessWithAction("Review requested", {
          label: "Open review",
          onClick: () => navigate(`/w/${workspaceId}/reviews/${review.id}`),
        });
        onClose();
      },
    });
  };

  const memberList = members.data ?? NO_MEMBERS;
  // Who is a reviewer of which stage: a member or an address belongs to one stage only.
  const takenBy = useMemo(
    () =>
      draft.stages.map((_, i) => new Set(draft.stages.flatMap((s, j) => (j === i ? [] : s.reviewers.map(entryId))))),
    [draft.stages],
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? "Edit review" : "Request review"}
      size="lg"
      data-testid="request-review-dialog"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {editing
              ? "Stages already done stay as they are; a reviewer removed from the active stage is no longer asked."
              : `Reviewers decide on ${subject}: approve, approve with changes, request changes or reject.`}
          </Text>
          <TextInput
            label="Title"
            required
            maxLength={200}
            value={draft.title}
            onChange={(e) => set({ title: e.currentTarget.value })}
            error={problem("title")}
            data-autofocus
          />
          <Textarea
            label="Message"
            placeholder="What should the reviewers look at?"
            autosize
            minRows={2}
            maxRows={6}
            maxLength={5000}
            value={draft.message}
            onChange={(e) => set({ message: e.currentTarget.value })}
          />
          <TextInput
            type="datetime-local"
            label="Due"
            description="Reviewers are reminded a day before, and when it has passed."
            min={localNow()}
            value={draft.due}
            onChange={(e) => set({ due: e.currentTarget.value })}
            error={problem("due")}
            w={{ base: "100%", xs: 260 }}
            data-testid="review-due"
          />

          <Stack gap="xs">
            <Text size="sm" fw={500}>
              Stages
            </Text>
            {draft.stages.length > 1 && (
              <Text size="xs" c="dimmed">
                Stages run one after another: a stage's reviewers are asked when the stage before it is done.
              </Text>
            )}
            {draft.stages.map((stage, i) =>
              stage.done ? (
                <DoneStage key={stage.key} index={i} stage={stage} />
              ) : (
                <Paper key={stage.key} withBorder radius="md" p="sm" data-testid={`review-stage-${i + 1}`}>
                  <Stack gap="xs">
                    <Group justify="space-between" wrap="wrap" gap="xs">
                      <Text size="sm" fw={600}>
                        Stage {i + 1}
                      </Text>
                      <Group gap="xs" wrap="nowrap">
                        <SegmentedControl
                          size="xs"
                          value={stage.rule}
                          onChange={(v) => setStage(i, { rule: v as StageDraft["rule"] })}
                          data={[
                            { value: "all", label: "All must approve" },
                            { value: "any", label: "Any one approves" },
                          ]}
                          aria-label={`Stage ${i + 1} rule`}
                        />
                        {draft.stages.filter((x) => !x.done).length > 1 && (
                          <ActionIcon
                            variant="subtle"
                            color="gray"
                            aria-label={`Remove stage ${i + 1}`}
                            onClick={() => set({ stages: draft.stages.filter((_, j) => j !== i) })}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        )}
                      </Group>
                    </Group>
                    <ReviewersInput
                      label="Reviewers"
                      members={memberList}
                      value={stage.reviewers}
                      onChange={(reviewers) => setStage(i, { reviewers })}
                      taken={takenBy[i] ?? new Set()}
                      error={problem("stages", i)}
                      testId={`review-stage-${i + 1}-reviewers`}
                    />
                  </Stack>
                </Paper>
              ),
            )}
            {draft.stages.length < MAX_STAGES && (
              <Button
                variant="subtle"
                size="compact-sm"
                w="fit-content"
                leftSection={<IconPlus size={14} />}
                onClick={() => set({ stages: [...draft.stages, newStage()] })}
              >
                Add a stage
              </Button>
            )}
            {members.isError && (
              <Text size="xs" c="dimmed">
                Members could not be listed: enter reviewers' e-mail addresses.
              </Text>
            )}
          </Stack>

          <Switch
            label="Lock approved assets"
            description="An approved asset takes no new version until the requester or an admin reopens it."
            checked={draft.lock}
            onChange={(e) => set({ lock: e.currentTarget.checked })}
          />

          {mutation.isError && (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
              {errorMessage(mutation.error, editing ? "Failed to update the review" : "Failed to request the review")}
              {/* A refused body's field messages, when they say more than the detail. */}
              {fieldMessages(mutation.error).map((m) => (
                <Text key={m} size="sm">
                  {m}
                </Text>
              ))}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending} data-testid="request-review-submit">
              {editing ? "Save changes" : "Request review"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A stage already done, while editing: its rule and reviewers as they were, not to be changed. */
function DoneStage({ index, stage }: { index: number; stage: StageDraft }) {
  return (
    <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-gray-0)" data-testid={`review-stage-${index + 1}`}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Stage {index + 1}
        </Text>
        <Text size="xs" c="dimmed">
          Done · {stage.rule === "all" ? "All must approve" : "Any one approves"}
        </Text>
      </Group>
      <Text size="sm" mt={4}>
        {stage.reviewers.map((r) => (r.kind === "member" ? r.name : (r.name ?? r.email))).join(", ")}
      </Text>
    </Paper>
  );
}

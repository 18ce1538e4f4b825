import type { AiAction, AiActionBody, AiActionKind, CustomField, FieldOption } from "@hangar/contract";
import { ActionIcon, Badge, Button, Group, Modal, Progress, Select, Stack, Text, Tooltip } from "@mantine/core";
import { modals } from "@mantine/modals";
import { IconPencil, IconPlayerPlay, IconSparkles, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { ApiError, errorMessage } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { cleanValues, type FormValues, initialValues, type JsonSchema, SchemaForm } from "../../ui/schema-form";
import { useAiActionAdmin, useAiRun, useAvailableAiActions, useStartAiRun } from "./ai-api";

/** "person, dog ≥ 0.5", "words: invoice", "#e03131 ΔE ≤ 15"…: an action's config in one line. */
export function actionSummary(a: Pick<AiAction, "kind" | "config">): string {
  const c = a.config;
  const list = (v: unknown) => (Array.isArray(v) ? v.join(", ") : String(v));
  switch (a.kind) {
    case "object_detected":
      return `${list(c.labels)} ≥ ${c.min_confidence}`;
    case "text_in_image":
      return [
        c.words ? `${c.match === "all" ? "all of" : "any of"}: ${list(c.words)}` : "",
        c.pattern ? `/${c.pattern}/` : "",
      ]
        .filter(Boolean)
        .join(" and ");
    case "dominant_color":
      return `${c.color} within ΔE ${c.max_distance}, ≥ ${Math.round(Number(c.min_share) * 100)}%`;
    default:
      return Object.entries(c)
        .filter(([k, v]) => k !== "use_regex" || v)
        .map(([k, v]) => `${k.replace(/_/g, " ")} ${list(v)}`)
        .join(" · ");
  }
}

/** An option's AI actions in Settings → Fields: each with its summary, edit and delete; "Add AI action". */
export function OptionAiActions({
  workspaceId,
  field,
  option,
  isAdmin,
}: {
  workspaceId: string;
  field: CustomField;
  option: FieldOption;
  isAdmin: boolean;
}) {
  const admin = useAiActionAdmin(workspaceId);
  const kinds = useAvailableAiActions(workspaceId);
  const [editing, setEditing] = useState<AiAction | "new" | null>(null);
  const title = (k: AiActionKind) => kinds.data?.find((x) => x.kind === k)?.title ?? k;
  if (!isAdmin && option.ai_actions.length === 0) return null;
  return (
    // Under the option's label: past the colour input on a desktop, past the handle on a phone.
    <Stack gap={4} pl={{ base: 36, sm: 158 }} data-testid="option-ai-actions">
      {option.ai_actions.map((a) => (
        <Group key={a.id} gap="xs" wrap="nowrap" data-testid="ai-action">
          <IconSparkles size={14} color="var(--mantine-color-grape-6)" />
          <Badge variant="light" color="grape" tt="none">
            {title(a.kind)}
          </Badge>
          <Text size="xs" c="dimmed" lineClamp={1} style={{ flex: 1 }}>
            {actionSummary(a)}
          </Text>
          {isAdmin && (
            <>
              <Tooltip label="Edit AI action">
                <ActionIcon size="sm" variant="subtle" aria-label="Edit AI action" onClick={() => setEditing(a)}>
                  <IconPencil size={14} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Delete AI action">
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="red"
                  aria-label="Delete AI action"
                  onClick={() =>
                    modals.openConfirmModal({
                      title: "Delete this AI action?",
                      children: <Text size="sm">Values it already set stay until someone changes them.</Text>,
                      labels: { confirm: "Delete", cancel: "Cancel" },
                      confirmProps: { color: "red" },
                      onConfirm: () =>
                        admin.remove.mutate(
                          { fieldId: field.id, optId: option.id, actionId: a.id },
                          { onError: (e) => notifyError(errorMessage(e, "Failed to delete AI action")) },
                        ),
                    })
                  }
                >
                  <IconTrash size={14} />
                </ActionIcon>
              </Tooltip>
            </>
          )}
        </Group>
      ))}
      {isAdmin && (
        <Group>
          <Button
            size="compact-xs"
            variant="subtle"
            color="grape"
            leftSection={<IconSparkles size={12} />}
            onClick={() => setEditing("new")}
          >
            Add AI action
          </Button>
        </Group>
      )}
      {editing && (
        <AiActionModal
          workspaceId={workspaceId}
          field={field}
          option={option}
          action={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

function AiActionModal({
  workspaceId,
  field,
  option,
  action,
  onClose,
}: {
  workspaceId: string;
  field: CustomField;
  option: FieldOption;
  action: AiAction | null;
  onClose: () => void;
}) {
  const kinds = useAvailableAiActions(workspaceId);
  const admin = useAiActionAdmin(workspaceId);
  const [kind, setKind] = useState<AiActionKind>(action?.kind ?? "object_detected");
  const info = kinds.data?.find((k) => k.kind === kind);
  const schema = info?.config_schema as JsonSchema | undefined;
  const [values, setValues] = useState<FormValues | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shown = values ?? (schema ? initialValues(schema, action?.kind === kind ? action.config : undefined) : {});
  const pending = admin.create.isPending || admin.update.isPending;

  const save = () => {
    const body = { kind, config: cleanValues(shown) } as AiActionBody;
    const ids = { fieldId: field.id, optId: option.id };
    const done = {
      onSuccess: () => {
        notifySuccess(action ? "AI action saved" : `AI action added to "${option.label}"`);
        onClose();
      },
      onError: (e: unknown) => {
        // 422s name the config's fields ("config.labels"): show each under its input.
        const list = e instanceof ApiError ? (e.errors ?? []) : [];
        setErrors(Object.fromEntries(list.map((x) => [x.field.split(".")[1] ?? x.field, x.message])));
        notifyError(errorMessage(e, "Failed to save AI action"));
      },
    };
    if (action) admin.update.mutate({ ...ids, actionId: action.id, body }, done);
    else admin.create.mutate({ ...ids, body }, done);
  };

  return (
    <Modal opened onClose={onClose} title={`AI action for "${option.label}"`} size="lg">
      <Stack gap="sm" data-testid="ai-action-form">
        <Select
          label="When"
          data={(kinds.data ?? []).map((k) => ({ value: k.kind, label: k.title }))}
          value={kind}
          allowDeselect={false}
          onChange={(v) => {
            if (!v) return;
            setKind(v as AiActionKind);
            setValues(null);
            setErrors({});
          }}
          data-testid="ai-action-kind"
        />
        {info && (
          <Text size="sm" c="dimmed">
            {info.description}
          </Text>
        )}
        {schema && (
          <SchemaForm
            schema={schema}
            values={shown}
            onChange={(v) => {
              setValues(v);
              setErrors({});
            }}
            errors={errors}
          />
        )}
        <Text size="xs" c="dimmed">
          The action picks "{option.label}" when the field is empty or was set by an action — never over a person's
          choice.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={pending} disabled={!schema}>
            {action ? "Save" : "Add action"}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** "Run on all assets" for a field: starts the job, shows its progress and the count of changes. */
export function RunOnAllAssets({ workspaceId, field }: { workspaceId: string; field: CustomField }) {
  const start = useStartAiRun(workspaceId);
  const [runId, setRunId] = useState<string | null>(null);
  const run = useAiRun(workspaceId, runId);
  const r = run.data;
  const active = !!runId && (!r || r.status === "queued" || r.status === "running");
  const hasActions = field.options.some((o) => o.ai_actions.length > 0);
  if (!hasActions) return null;
  return (
    <Stack gap={4} mt="xs" data-testid="ai-run">
      <Group gap="sm">
        <Button
          size="compact-sm"
          variant="light"
          color="grape"
          leftSection={<IconPlayerPlay size={14} />}
          loading={start.isPending}
          disabled={active}
          onClick={() =>
            start.mutate(field.id, {
              onSuccess: (a) => setRunId(a.id),
              onError: (e) => notifyError(errorMessage(e, "Failed to start the run")),
            })
          }
        >
          Run on all assets
        </Button>
        {r && (
          <Text size="sm" c={r.status === "failed" ? "red" : "dimmed"} data-testid="ai-run-status">
            {r.status === "done"
              ? `Done: ${r.processed} asset(s) checked, ${r.changes} changed`
              : r.status === "failed"
                ? (r.error ?? "The run failed")
                : `${r.processed} / ${r.total} asset(s) checked, ${r.changes} changed`}
          </Text>
        )}
      </Group>
      {r && active && <Progress value={r.total ? (100 * r.processed) / r.total : 0} size="sm" animated />}
    </Stack>
  );
}

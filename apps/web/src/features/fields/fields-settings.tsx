import { type CustomField, canAdmin, FIELD_TYPES, type FieldType } from "@hangar/contract";
import {
  ActionIcon,
  Badge,
  Button,
  ColorInput,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from "@mantine/core";
import { IconArrowDown, IconArrowUp, IconForms, IconPlus, IconTrash } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/api-client";
import { openConfirm } from "../../lib/confirm-modal";
import { notifyError, notifySuccess } from "../../lib/notify";
import { EmptyPanel } from "../../ui/empty-panel";
import { useCurrentWorkspace } from "../workspaces";
import { OptionAiActions, RunOnAllAssets } from "./ai-actions-settings";
import { useFieldAdmin, useFields } from "./api";

const TYPE_LABEL: Record<FieldType, string> = {
  SINGLE_SELECT: "Single select",
  MULTI_SELECT: "Multi select",
  TEXT: "Text",
  DATE: "Date",
};
const SWATCHES = ["#9e9e9e", "#e03131", "#f08c00", "#f59f00", "#2f9e44", "#1971c2", "#7048e8", "#c2255c"];

/** What a type change does to the values (the contract's rule, said before it happens). */
function typeChangeRule(from: FieldType, to: FieldType): string {
  if (from.endsWith("SELECT") && to.endsWith("SELECT"))
    return "Values keep their options (a multi value keeps its first).";
  if (to === "TEXT") return "Each value becomes its text.";
  return "Existing values will be cleared.";
}

/** Settings → Fields (spec 01 §2 child "fields"): ADMIN edits; everyone else sees the fields read-only. */
export function FieldsSettings() {
  const workspace = useCurrentWorkspace();
  const isAdmin = canAdmin(workspace.user_role);
  const fields = useFields(workspace.id);
  const admin = useFieldAdmin(workspace.id);
  const [title, setTitle] = useState("");
  const [type, setType] = useState<FieldType>("SINGLE_SELECT");
  const fail = (err: unknown) => notifyError(errorMessage(err, "Failed to update field"));

  const create = (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return;
    admin.create.mutate({ title: title.trim(), field_type: type }, { onSuccess: () => setTitle(""), onError: fail });
  };
  const move = (list: CustomField[], i: number, d: -1 | 1) => {
    const ids = list.map((f) => f.id);
    [ids[i], ids[i + d]] = [ids[i + d]!, ids[i]!];
    admin.reorder.mutate(ids, { onError: fail });
  };

  return (
    <Stack gap="md" data-testid="settings-fields">
      <div>
        <Title order={3}>Custom fields</Title>
        <Text size="sm" c="dimmed">
          Fields every asset of this workspace can carry: status, client, usage rights…{" "}
          {isAdmin ? "" : "Only admins change them."}
        </Text>
      </div>
      {isAdmin && (
        <Paper withBorder p="md" radius="md" component="form" onSubmit={create}>
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="New field"
              placeholder="Status"
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              style={{ flex: 1, minWidth: 200 }}
            />
            <Select
              label="Type"
              data={FIELD_TYPES.map((t) => ({ value: t, label: TYPE_LABEL[t] }))}
              value={type}
              onChange={(v) => v && setType(v as FieldType)}
              allowDeselect={false}
              w={170}
            />
            <Button
              type="submit"
              leftSection={<IconPlus size={16} />}
              loading={admin.create.isPending}
              disabled={!title.trim()}
            >
              Add field
            </Button>
          </Group>
        </Paper>
      )}
      {fields.isPending ? (
        <Loader size="sm" />
      ) : fields.isError ? (
        <Text c="red">{errorMessage(fields.error, "Failed to fetch fields")}</Text>
      ) : fields.data.length === 0 ? (
        <EmptyPanel
          testId="fields-empty"
          icon={<IconForms size={28} />}
          title="No custom fields"
          description="Add a field above to start."
        />
      ) : (
        fields.data.map((f, i, list) => (
          <Paper key={f.id} withBorder p="md" radius="md" data-testid="field-card">
            <Group justify="space-between" wrap="nowrap" align="flex-end">
              <Group wrap="nowrap" align="flex-end" style={{ flex: 1 }}>
                <TextInput
                  label="Title"
                  defaultValue={f.title}
                  key={f.title}
                  readOnly={!isAdmin}
                  onBlur={(e) => {
                    const t = e.currentTarget.value.trim();
                    if (t && t !== f.title) admin.update.mutate({ id: f.id, title: t }, { onError: fail });
                  }}
                  style={{ flex: 1 }}
                />
                <Select
                  label="Type"
                  data={FIELD_TYPES.map((t) => ({ value: t, label: TYPE_LABEL[t] }))}
                  value={f.field_type}
                  disabled={!isAdmin}
                  allowDeselect={false}
                  w={170}
                  onChange={(v) => {
                    const to = v as FieldType;
                    if (!to || to === f.field_type) return;
                    openConfirm({
                      title: `Change "${f.title}" to ${TYPE_LABEL[to]}?`,
                      children: (
                        <Text size="sm">
                          {f.value_count} value(s). {typeChangeRule(f.field_type, to)}
                        </Text>
                      ),
                      labels: { confirm: "Change type", cancel: "Cancel" },
                      onConfirm: () =>
                        admin.update.mutate(
                          { id: f.id, field_type: to },
                          {
                            onSuccess: (a) => a.values_cleared && notifySuccess(`${a.values_cleared} value(s) cleared`),
                            onError: fail,
                          },
                        ),
                    });
                  }}
                />
              </Group>
              {isAdmin && (
                <Group gap={4} wrap="nowrap">
                  <Tooltip label="Move up">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move ${f.title} up`}
                      disabled={i === 0}
                      onClick={() => move(list, i, -1)}
                    >
                      <IconArrowUp size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Move down">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move ${f.title} down`}
                      disabled={i === list.length - 1}
                      onClick={() => move(list, i, 1)}
                    >
                      <IconArrowDown size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete field">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${f.title}`}
                      onClick={() =>
                        openConfirm({
                          title: `Delete "${f.title}"?`,
                          children: (
                            <Text size="sm">
                              Its {f.value_count} value(s) on assets and boards go with it. This cannot be undone.
                            </Text>
                          ),
                          labels: { confirm: "Delete", cancel: "Cancel" },
                          confirmProps: { color: "red" },
                          onConfirm: () => admin.remove.mutate(f.id, { onError: fail }),
                        })
                      }
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              )}
            </Group>
            {f.field_type.endsWith("SELECT") && <Options field={f} isAdmin={isAdmin} />}
          </Paper>
        ))
      )}
    </Stack>
  );
}

function Options({ field, isAdmin }: { field: CustomField; isAdmin: boolean }) {
  const workspace = useCurrentWorkspace();
  const admin = useFieldAdmin(workspace.id);
  const [label, setLabel] = useState("");
  const [color, setColor] = useState(SWATCHES[5]!);
  const fail = (err: unknown) => notifyError(errorMessage(err, "Failed to update field"));
  const add = () => {
    if (!label.trim()) return;
    admin.createOption.mutate(
      { fieldId: field.id, label: label.trim(), color },
      { onSuccess: () => setLabel(""), onError: fail },
    );
  };
  return (
    <Stack gap={6} mt="sm">
      <Text size="sm" fw={600}>
        Options
      </Text>
      {field.options.length === 0 && (
        <Text size="sm" c="dimmed">
          No options yet.
        </Text>
      )}
      {field.options.map((o) => (
        <Stack key={o.id} gap={2}>
          <Group gap="xs" wrap="nowrap" data-testid="field-option">
            <ColorInput
              aria-label={`Colour of ${o.label}`}
              defaultValue={o.color}
              key={o.color}
              swatches={SWATCHES}
              disabled={!isAdmin}
              w={150}
              format="hex"
              onChangeEnd={(c) =>
                c !== o.color &&
                admin.updateOption.mutate({ fieldId: field.id, optId: o.id, color: c }, { onError: fail })
              }
            />
            <TextInput
              aria-label="Option label"
              defaultValue={o.label}
              key={o.label}
              readOnly={!isAdmin}
              style={{ flex: 1 }}
              onBlur={(e) => {
                const l = e.currentTarget.value.trim();
                if (l && l !== o.label)
                  admin.updateOption.mutate({ fieldId: field.id, optId: o.id, label: l }, { onError: fail });
              }}
            />
            <Badge color={o.color} variant="filled" miw={60}>
              {o.label}
            </Badge>
            {isAdmin && (
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete option ${o.label}`}
                onClick={() =>
                  admin.removeOption.mutate(
                    { fieldId: field.id, optId: o.id },
                    {
                      onSuccess: (a) =>
                        notifySuccess(`Option "${o.label}" deleted; ${a.values_cleared} value(s) cleared`),
                      onError: fail,
                    },
                  )
                }
              >
                <IconTrash size={14} />
              </ActionIcon>
            )}
          </Group>
          <OptionAiActions workspaceId={workspace.id} field={field} option={o} isAdmin={isAdmin} />
        </Stack>
      ))}
      {isAdmin && (
        <Group gap="xs" wrap="nowrap">
          <ColorInput
            aria-label="New option colour"
            value={color}
            onChange={setColor}
            swatches={SWATCHES}
            w={150}
            format="hex"
          />
          <TextInput
            aria-label="New option"
            placeholder="New option"
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
            style={{ flex: 1 }}
          />
          <Button variant="light" onClick={add} disabled={!label.trim()} loading={admin.createOption.isPending}>
            Add option
          </Button>
        </Group>
      )}
      {isAdmin && <RunOnAllAssets workspaceId={workspace.id} field={field} />}
    </Stack>
  );
}

import { canAdmin, FIELD_TYPES, type FieldType } from "@hangar/contract";
import {
  ActionIcon,
  Box,
  Button,
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
import { IconForms, IconPlus, IconTrash } from "@tabler/icons-react";
import { type FormEvent, useMemo, useState } from "react";
import { useCurrentWorkspace } from "../../entities/workspace";
import { errorMessage } from "../../lib/api-client";
import { openConfirm } from "../../lib/confirm-modal";
import { notifyError, notifySuccess } from "../../lib/notify";
import { EmptyPanel } from "../../ui/empty-panel";
import { useFieldAdmin, useFields } from "./api";
import { Options } from "./field-options";
import { useFieldOrder } from "./field-order";
import { SortableItem, SortableList } from "./sortable-list";

const TYPE_LABEL: Record<FieldType, string> = {
  SINGLE_SELECT: "Single select",
  MULTI_SELECT: "Multi select",
  TEXT: "Text",
  DATE: "Date",
};

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
  const order = useFieldOrder(workspace.id);
  const entries = useMemo(() => (fields.data ?? []).map((f) => ({ id: f.id, label: f.title })), [fields.data]);
  const [title, setTitle] = useState("");
  const [type, setType] = useState<FieldType>("SINGLE_SELECT");
  const fail = (err: unknown) => notifyError(errorMessage(err, "Failed to update field"));

  const create = (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return;
    admin.create.mutate({ title: title.trim(), field_type: type }, { onSuccess: () => setTitle(""), onError: fail });
  };

  return (
    <Stack gap="md" data-testid="settings-fields">
      <div>
        <Title order={2} size="h3">
          Custom fields
        </Title>
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
        <SortableList entries={entries} noun="field" enabled={isAdmin} onMove={(ids) => order.moveFields(ids, fail)}>
          {fields.data.map((f, i) => (
            <SortableItem key={f.id} entry={entries[i]!}>
              {({ ref, style, handle }) => (
                <Paper ref={ref} style={style} withBorder p="md" radius="md" data-testid="field-card">
                  <Group justify="space-between" wrap="nowrap" align="flex-end">
                    {/* The title takes the room; the type wraps below it where both do not fit (a phone). */}
                    <Group wrap="wrap" align="flex-end" style={{ flex: 1 }} miw={0}>
                      {handle && <Box pb={4}>{handle}</Box>}
                      <TextInput
                        label="Title"
                        defaultValue={f.title}
                        key={f.title}
                        readOnly={!isAdmin}
                        onBlur={(e) => {
                          const t = e.currentTarget.value.trim();
                          if (t && t !== f.title) admin.update.mutate({ id: f.id, title: t }, { onError: fail });
                        }}
                        style={{ flex: "1 1 12rem", minWidth: 0 }}
                      />
                      <Select
                        label="Type"
                        data={FIELD_TYPES.map((t) => ({ value: t, label: TYPE_LABEL[t] }))}
                        value={f.field_type}
                        disabled={!isAdmin}
                        allowDeselect={false}
                        style={{ flex: "0 0 10.625rem" }}
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
                                  onSuccess: (a) =>
                                    a.values_cleared && notifySuccess(`${a.values_cleared} value(s) cleared`),
                                  onError: fail,
                                },
                              ),
                          });
                        }}
                      />
                    </Group>
                    {isAdmin && (
                      <Group gap={4} wrap="nowrap">
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
              )}
            </SortableItem>
          ))}
        </SortableList>
      )}
    </Stack>
  );
}

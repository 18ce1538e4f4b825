import type { CustomField } from "@hangar/contract";
import { ActionIcon, Badge, Button, ColorInput, Group, Stack, Text, TextInput } from "@mantine/core";
import { IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { useCurrentWorkspace } from "../../entities/workspace";
import { errorMessage } from "../../lib/api-client";
import { textOn } from "../../lib/contrast";
import { notifyError, notifySuccess } from "../../lib/notify";
import { OptionAiActions, RunOnAllAssets } from "./ai-actions-settings";
import { useFieldAdmin } from "./api";
import { useFieldOrder } from "./field-order";
import { SortableItem, SortableList } from "./sortable-list";

export const SWATCHES = ["#9e9e9e", "#e03131", "#f08c00", "#f59f00", "#2f9e44", "#1971c2", "#7048e8", "#c2255c"];

/** A select field's options in Settings → Fields: colour, label, drag order (ADMIN); read-only for others. */
export function Options({ field, isAdmin }: { field: CustomField; isAdmin: boolean }) {
  const workspace = useCurrentWorkspace();
  const admin = useFieldAdmin(workspace.id);
  const order = useFieldOrder(workspace.id);
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
      <SortableList
        entries={field.options}
        noun="option"
        enabled={isAdmin}
        onMove={(ids) => order.moveOptions(field.id, ids, fail)}
      >
        {field.options.map((o) => (
          <SortableItem key={o.id} entry={o}>
            {({ ref, style, handle }) => (
              <Stack ref={ref} style={{ ...style, background: "var(--mantine-color-body)" }} gap={2}>
                <Group gap="xs" wrap="nowrap" data-testid="field-option">
                  {handle}
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
                  <Badge color={o.color} c={textOn(o.color)} variant="filled" miw={60}>
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
            )}
          </SortableItem>
        ))}
      </SortableList>
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

import type { CustomField } from "@hangar/contract";
import { ActionIcon, Badge, Button, ColorInput, Stack, Text, TextInput } from "@mantine/core";
import { IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { useCurrentWorkspace } from "../../entities/workspace";
import { errorMessage } from "../../lib/api-client";
import { textOn } from "../../lib/contrast";
import { notifyError, notifySuccess } from "../../lib/notify";
import { OptionAiActions, RunOnAllAssets } from "./ai-actions-settings";
import { useFieldAdmin } from "./api";
import { useFieldOrder } from "./field-order";
import classes from "./fields-settings.module.css";
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
                <div className={classes.option} data-testid="field-option">
                  {handle && <div className={classes.handle}>{handle}</div>}
                  {/* Its colour and the badge it makes (the badge wraps below the colour on a narrow phone). */}
                  <div className={classes.look}>
                    <ColorInput
                      aria-label={`Colour of ${o.label}`}
                      defaultValue={o.color}
                      key={o.color}
                      swatches={SWATCHES}
                      disabled={!isAdmin}
                      className={classes.colour}
                      format="hex"
                      onChangeEnd={(c) =>
                        c !== o.color &&
                        admin.updateOption.mutate({ fieldId: field.id, optId: o.id, color: c }, { onError: fail })
                      }
                    />
                    <Badge color={o.color} c={textOn(o.color)} variant="filled" miw={60} className={classes.badge}>
                      {o.label}
                    </Badge>
                  </div>
                  <TextInput
                    aria-label="Option label"
                    defaultValue={o.label}
                    key={o.label}
                    readOnly={!isAdmin}
                    className={classes.label}
                    onBlur={(e) => {
                      const l = e.currentTarget.value.trim();
                      if (l && l !== o.label)
                        admin.updateOption.mutate({ fieldId: field.id, optId: o.id, label: l }, { onError: fail });
                    }}
                  />
                  {isAdmin && (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      className={classes.delete}
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
                </div>
                <OptionAiActions workspaceId={workspace.id} field={field} option={o} isAdmin={isAdmin} />
              </Stack>
            )}
          </SortableItem>
        ))}
      </SortableList>
      {isAdmin && (
        <div className={classes.add}>
          <ColorInput
            aria-label="New option colour"
            value={color}
            onChange={setColor}
            swatches={SWATCHES}
            className={classes.colour}
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
            className={classes.label}
          />
          <Button
            variant="light"
            onClick={add}
            disabled={!label.trim()}
            loading={admin.createOption.isPending}
            className={classes.button}
          >
            Add option
          </Button>
        </div>
      )}
      {isAdmin && <RunOnAllAssets workspaceId={workspace.id} field={field} />}
    </Stack>
  );
}

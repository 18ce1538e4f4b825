import { type CustomField, type FieldValue, UNASSIGNED } from "@hangar/contract";
import { Box, Group, MultiSelect, Select, Text, TextInput } from "@mantine/core";
import { useEffect, useState } from "react";
import type { ValueInput } from "./api";

const Dot = ({ color }: { color: string }) => (
  <Box w={10} h={10} style={{ borderRadius: "50%", background: color, flexShrink: 0 }} aria-hidden />
);

/**
 * One field's editor (spec 02 §4 Custom field editing): single select with "Unassigned" (a null id,
 * grey) that skips the current option; multi select whose chips remove one by one; text saved on
 * Enter or leaving the box; a date. Read-only shows the value only.
 */
export function FieldEditor(props: {
  field: CustomField;
  value: FieldValue | undefined;
  readOnly?: boolean;
  label?: string;
  onChange(value: ValueInput): void;
}) {
  const { field, value, readOnly } = props;
  const current = value?.option_value?.id ?? null;
  const color = (id: string | null) => field.options.find((o) => o.id === id)?.color ?? UNASSIGNED.color;
  const label = props.label ?? field.title;
  const [text, setText] = useState(value?.text_value ?? "");
  useEffect(() => setText(value?.text_value ?? ""), [value?.text_value]);

  if (field.field_type === "SINGLE_SELECT") {
    const data = [
      { value: "__unassigned__", label: UNASSIGNED.label },
      ...field.options.map((o) => ({ value: o.id, label: o.label })),
    ];
    return (
      <Select
        label={label}
        data={data}
        value={current ?? "__unassigned__"}
        disabled={readOnly}
        allowDeselect={false}
        leftSection={<Dot color={color(current)} />}
        renderOption={({ option }) => (
          <Group gap={8} wrap="nowrap">
            <Dot color={option.value === "__unassigned__" ? UNASSIGNED.color : color(option.value)} />
            <Text size="sm">{option.label}</Text>
          </Group>
        )}
        onChange={(v) => {
          const id = v === "__unassigned__" || v === null ? null : v;
          if (id === current) return; // choosing the current option is skipped (spec 02 §4)
          props.onChange({ option_value_id: id });
        }}
        comboboxProps={{ withinPortal: true }}
      />
    );
  }
  if (field.field_type === "MULTI_SELECT") {
    return (
      <MultiSelect
        label={label}
        data={field.options.map((o) => ({ value: o.id, label: o.label }))}
        value={value?.multi_options.map((o) => o.id) ?? []}
        disabled={readOnly}
        placeholder={readOnly ? undefined : "Choose…"}
        clearable={!readOnly}
        renderOption={({ option }) => (
          <Group gap={8} wrap="nowrap">
            <Dot color={color(option.value)} />
            <Text size="sm">{option.label}</Text>
          </Group>
        )}
        onChange={(ids) => props.onChange({ multi_option_ids: ids })}
        comboboxProps={{ withinPortal: true }}
      />
    );
  }
  if (field.field_type === "DATE") {
    return (
      <TextInput
        type="date"
        label={label}
        value={value?.date_value ?? ""}
        readOnly={readOnly}
        disabled={readOnly}
        onChange={(e) => {
          const v = e.currentTarget.value;
          props.onChange({ date_value: v || null });
        }}
      />
    );
  }
  const save = () => {
    if (text !== (value?.text_value ?? "")) props.onChange({ text_value: text });
  };
  return (
    <TextInput
      label={label}
      value={text}
      readOnly={readOnly}
      disabled={readOnly}
      placeholder={readOnly ? undefined : "Type and press Enter"}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={save}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          save();
        }
      }}
    />
  );
}

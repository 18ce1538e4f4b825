import type { AssetListBody, CustomField } from "@hangar/contract";
import { Group, MultiSelect, Stack, Text, TextInput } from "@mantine/core";
import { useFields } from "../../fields";
import { TriState } from "./filter-inputs";
import type { SectionProps } from "./sections-basic";

type Entry = NonNullable<AssetListBody["custom_fields"]>[number];

/** The filter builder's custom-field section (top level). */
export function CustomFieldsSection({ draft, set, workspaceId }: SectionProps & { workspaceId: string }) {
  return (
    <CustomFieldsEditor
      workspaceId={workspaceId}
      value={draft.custom_fields as Entry[] | undefined}
      onChange={(v) => set(["custom_fields"], v)}
    />
  );
}

/** Per field: options any of (all of, none of), text contains, dates, emptiness; also inside or_groups. */
export function CustomFieldsEditor({
  workspaceId,
  value,
  onChange,
}: {
  workspaceId: string;
  value: Entry[] | undefined;
  onChange(entries: Entry[] | undefined): void;
}) {
  const fields = useFields(workspaceId);
  const entries = value ?? [];
  const entry = (f: CustomField) => entries.find((e) => e.field_id === f.id) ?? { field_id: f.id };
  const put = (f: CustomField, patch: Partial<Entry>) => {
    const next = { ...entry(f), ...patch };
    const meaningful = Object.entries(next).some(
      ([k, v]) => k !== "field_id" && v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0),
    );
    const rest = entries.filter((e) => e.field_id !== f.id);
    const list = meaningful ? [...rest, next] : rest;
    onChange(list.length ? list : undefined);
  };
  if (!fields.data?.length)
    return (
      <Text size="sm" c="dimmed">
        No custom fields in this workspace.
      </Text>
    );
  return (
    <Stack gap="md" data-testid="filter-custom-fields">
      {fields.data.map((f) => {
        const e = entry(f);
        const options = f.options.map((o) => ({ value: o.id, label: o.label }));
        return (
          <Stack key={f.id} gap={6}>
            <Text size="sm" fw={600}>
              {f.title}
            </Text>
            {f.field_type.endsWith("SELECT") && (
              <>
                <MultiSelect
                  label="Is any of"
                  data={options}
                  value={e.any_of ?? []}
                  onChange={(v) => put(f, { any_of: v })}
                  comboboxProps={{ withinPortal: true }}
                />
                {f.field_type === "MULTI_SELECT" && (
                  <MultiSelect
                    label="Has all of"
                    data={options}
                    value={e.all_of ?? []}
                    onChange={(v) => put(f, { all_of: v })}
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
                <MultiSelect
                  label="Is none of"
                  data={options}
                  value={e.none_of ?? []}
                  onChange={(v) => put(f, { none_of: v })}
                  comboboxProps={{ withinPortal: true }}
                />
              </>
            )}
            {f.field_type === "TEXT" && (
              <TextInput
                label="Contains"
                value={e.text_contains ?? ""}
                onChange={(ev) => put(f, { text_contains: ev.currentTarget.value || undefined })}
              />
            )}
            {f.field_type === "DATE" && (
              <Group grow gap="xs">
                <TextInput
                  type="date"
                  label="From"
                  value={e.date_from ?? ""}
                  onChange={(ev) => put(f, { date_from: ev.currentTarget.value || undefined })}
                />
                <TextInput
                  type="date"
                  label="To"
                  value={e.date_to ?? ""}
                  onChange={(ev) => put(f, { date_to: ev.currentTarget.value || undefined })}
                />
              </Group>
            )}
            <TriState label="Value" value={e.is_empty} onChange={(v) => put(f, { is_empty: v })} yes="Empty" no="Set" />
          </Stack>
        );
      })}
    </Stack>
  );
}

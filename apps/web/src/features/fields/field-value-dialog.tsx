import { type CustomField, FIELD_MESSAGES, type FieldValue } from "@hangar/contract";
import { Button, Group, Modal, Select, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { errorMessage } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { useFields, useFieldValues, useSetFieldValue, type ValueInput } from "./api";
import { FieldEditor } from "./field-editor";

/**
 * "Edit a field" for one asset or many (spec 01 §2 Dialogs): choose a field, set its value; the
 * toast says `Field "{title}" updated for N item(s)`, a failure "Failed to update field value".
 */
export function FieldValueDialog(props: { workspaceId: string; assetIds: string[]; opened: boolean; onClose(): void }) {
  const { workspaceId, assetIds, opened } = props;
  const fields = useFields(workspaceId);
  const [fieldId, setFieldId] = useState<string | null>(null);
  const [draft, setDraft] = useState<ValueInput | null>(null);
  const single = assetIds.length === 1 ? assetIds[0]! : null;
  const values = useFieldValues(workspaceId, single);
  const setter = useSetFieldValue(workspaceId);
  useEffect(() => {
    if (opened) {
      setDraft(null);
      setFieldId((id) => id ?? fields.data?.[0]?.id ?? null);
    }
  }, [opened, fields.data]);
  const field: CustomField | undefined = fields.data?.find((f) => f.id === fieldId);
  const current = single ? values.data?.find((v) => v.field_id === fieldId) : undefined;
  const shown: FieldValue | undefined = field && draft ? preview(field, current, draft) : current;

  const save = () => {
    if (!field || !draft) return;
    setter.set(
      { field, assetIds, value: draft },
      {
        onSuccess: (answer) => {
          notifySuccess(FIELD_MESSAGES.updated(field.title, answer.count));
          props.onClose();
        },
        onError: (err) => notifyError(errorMessage(err, FIELD_MESSAGES.valueFailed)),
      },
    );
  };
  return (
    <Modal
      opened={opened}
      onClose={props.onClose}
      title={assetIds.length === 1 ? "Edit field" : `Edit field for ${assetIds.length} assets`}
      miw={400}
    >
      {fields.data?.length === 0 ? (
        <Text size="sm" c="dimmed">
          {FIELD_MESSAGES.noFields}: an admin adds them in Settings → Fields.
        </Text>
      ) : (
        <Stack>
          <Select
            label="Field"
            data={(fields.data ?? []).map((f) => ({ value: f.id, label: f.title }))}
            value={fieldId}
            onChange={(id) => {
              setFieldId(id);
              setDraft(null);
            }}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {field && <FieldEditor key={field.id} field={field} value={shown} label="Value" onChange={setDraft} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button onClick={save} disabled={!draft} loading={setter.isPending} data-testid="field-dialog-save">
              Save
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** What the editor shows before saving: the draft over the current value. */
function preview(field: CustomField, current: FieldValue | undefined, d: ValueInput): FieldValue {
  const opt = (id: string) => {
    const o = field.options.find((x) => x.id === id)!;
    return { id: o.id, label: o.label, color: o.color };
  };
  return {
    id: current?.id ?? "draft",
    field_id: field.id,
    text_value: d.text_value ?? current?.text_value ?? null,
    date_value: d.date_value !== undefined ? d.date_value : (current?.date_value ?? null),
    option_value:
      d.option_value_id !== undefined
        ? d.option_value_id
          ? opt(d.option_value_id)
          : null
        : (current?.option_value ?? null),
    multi_options: d.multi_option_ids ? d.multi_option_ids.map(opt) : (current?.multi_options ?? []),
    value_display: "",
    set_by: null,
    set_at: null,
  };
}

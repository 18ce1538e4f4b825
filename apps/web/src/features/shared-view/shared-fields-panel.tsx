import { type Asset, FIELD_MESSAGES, FIELD_UPDATE_GUARD_MS } from "@hangar/contract";
import { useRef } from "react";
import { errorMessage } from "../../lib/api-client";
import { notifyError } from "../../lib/notify";
import type { AnonymousInfo } from "../comments";
import { FieldEditor, FieldsPanelFrame, type ValueInput } from "../fields";
import { useSetSharedField, useSharedFields } from "../shares";

/**
 * The fields tab in a shared view (spec 02 §2, §4, §6): every field with the asset's value, editable
 * only when the link allows it. A visitor's first edit asks their name unless it is stored; cancelling
 * discards the edit. Failures show the server's detail (spec 02 §8).
 */
export function SharedFieldsPanel(props: {
  token: string;
  asset: Asset;
  editable: boolean;
  identify(): Promise<AnonymousInfo | null>;
}) {
  const { token, asset, editable } = props;
  const fields = useSharedFields(token, asset.id);
  const setter = useSetSharedField(token, asset.id);
  const last = useRef<{ key: string; at: number } | null>(null);

  const change = async (fieldId: string, value: ValueInput) => {
    // A duplicate identical update within a second is ignored (spec 02 §9).
    const key = JSON.stringify([fieldId, value]);
    const now = Date.now();
    if (last.current && last.current.key === key && now - last.current.at < FIELD_UPDATE_GUARD_MS) return;
    last.current = { key, at: now };
    const who = await props.identify();
    if (!who) {
      void fields.refetch(); // the editor shows the stored value again
      return;
    }
    setter.mutate(
      { fieldId, body: { ...value, editor_name: who.name, editor_email: who.email } },
      { onError: (e) => notifyError(errorMessage(e, FIELD_MESSAGES.updateFailed)) },
    );
  };

  return (
    <FieldsPanelFrame
      error={fields.error}
      loading={!fields.data}
      empty={fields.data?.length === 0}
      onRetry={() => void fields.refetch()}
    >
      {fields.data?.map(({ field, value }) => (
        <div key={field.id} data-testid="field-row">
          <FieldEditor
            field={field}
            value={value ?? undefined}
            readOnly={!editable}
            label={field.title}
            onChange={(v) => void change(field.id, v)}
          />
        </div>
      ))}
    </FieldsPanelFrame>
  );
}

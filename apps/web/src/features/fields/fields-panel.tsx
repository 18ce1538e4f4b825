import { type Asset, FIELD_MESSAGES } from "@hangar/contract";
import { errorMessage } from "../../lib/api-client";
import { notifyError } from "../../lib/notify";
import { useRecognisedText } from "./ai-api";
import { AiMark } from "./ai-evidence";
import { useFields, useFieldValues, useSetFieldValue } from "./api";
import { FieldEditor } from "./field-editor";
import { FieldsPanelFrame } from "./fields-panel-frame";

/**
 * The viewer's fields tab (spec 02 §2 Fields panel): heading Fields, every field with its editor
 * (read-only for COMMENTERs and when `readOnly`), the empty texts and the errors of §8.
 */
export function FieldsPanel({
  workspaceId,
  asset,
  readOnly,
}: {
  workspaceId: string;
  asset: Asset;
  readOnly: boolean;
}) {
  const fields = useFields(workspaceId);
  const values = useFieldValues(workspaceId, asset.id);
  // Text read after processing may let an action set a value: refetched when it arrives.
  useRecognisedText(workspaceId, asset.id);
  const setter = useSetFieldValue(workspaceId);
  const error = fields.error ?? values.error;
  const url = asset.grid_url ?? asset.thumbnail_url;
  const picture = url && asset.width && asset.height ? { url, width: asset.width, height: asset.height } : null;
  return (
    <FieldsPanelFrame
      error={error}
      loading={!fields.data || !values.data}
      empty={fields.data?.length === 0}
      onRetry={() => {
        void fields.refetch();
        void values.refetch();
      }}
    >
      {fields.data &&
        values.data &&
        fields.data.map((field) => {
          const value = values.data.find((v) => v.field_id === field.id);
          const byAction = value?.set_by?.kind === "action";
          return (
            <div key={field.id} data-testid="field-row">
              <FieldEditor
                field={field}
                value={value}
                readOnly={readOnly}
                label={field.title}
                onChange={(v) =>
                  setter.set(
                    { field, assetIds: [asset.id], value: v },
                    { onError: (err) => notifyError(errorMessage(err, FIELD_MESSAGES.updateFailed)) },
                  )
                }
              />
              {byAction && <AiMark workspaceId={workspaceId} assetId={asset.id} fieldId={field.id} picture={picture} />}
            </div>
          );
        })}
    </FieldsPanelFrame>
  );
}

import { type Asset, FIELD_MESSAGES } from "@hangar/contract";
import { Alert, Button, Group, Loader, Stack, Text, Tooltip } from "@mantine/core";
import { IconForms, IconSparkles } from "@tabler/icons-react";
import { errorMessage } from "../../lib/api-client";
import { notifyError } from "../../lib/notify";
import { useFields, useFieldValues, useSetFieldValue } from "./api";
import { FieldEditor } from "./field-editor";

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
  const setter = useSetFieldValue(workspaceId);
  const error = fields.error ?? values.error;
  return (
    <Stack gap="sm" data-testid="fields-panel">
      <Text fw={650}>Fields</Text>
      {error ? (
        <Alert color="red" variant="light">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{errorMessage(error, FIELD_MESSAGES.fetchFailed)}</Text>
            <Button
              size="compact-xs"
              variant="light"
              color="red"
              onClick={() => {
                void fields.refetch();
                void values.refetch();
              }}
            >
              Retry
            </Button>
          </Group>
        </Alert>
      ) : !fields.data || !values.data ? (
        <Loader size="sm" />
      ) : fields.data.length === 0 ? (
        <Stack align="center" gap={4} py="xl" data-testid="fields-empty">
          <IconForms size={32} color="var(--mantine-color-gray-5)" />
          <Text fw={600}>{FIELD_MESSAGES.noFields}</Text>
          <Text size="sm" c="dimmed" ta="center">
            {FIELD_MESSAGES.noFieldsDetail}
          </Text>
        </Stack>
      ) : (
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
              {byAction && (
                <Tooltip label="Set by an AI action">
                  <Group gap={4} mt={2}>
                    <IconSparkles size={12} color="var(--mantine-color-grape-6)" />
                    <Text size="xs" c="grape">
                      AI
                    </Text>
                  </Group>
                </Tooltip>
              )}
            </div>
          );
        })
      )}
    </Stack>
  );
}

import { NO_RIGHTS, type RightsChanges } from "@hangar/contract";
import { Button, Group, Modal, Select, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { errorMessage } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { useBulkRights } from "./api";
import { bodyOf, draftOf, type RightsDraft, RightsForm } from "./rights-form";
import { fieldErrors } from "./rights-section";

const KEYS = {
  license: { label: "Licence", keys: ["license", "cc_variant"] },
  credit: { label: "Credit / creator", keys: ["credit"] },
  source: { label: "Source", keys: ["source"] },
  usage_notes: { label: "Usage notes", keys: ["usage_notes"] },
  territories: { label: "Territories", keys: ["territories"] },
  releases: { label: "Model and property releases", keys: ["model_release", "property_release"] },
  expires_at: { label: "Expiry date", keys: ["expires_at"] },
} as const;
type Key = keyof typeof KEYS;

/**
 * "Rights" from the bulk bar (issue 33): one thing changed on every selected asset (licence, credit,
 * expiry…), the rest of each asset's rights kept, as fields' bulk edit sets one field.
 */
export function BulkRightsDialog(props: { workspaceId: string; assetIds: string[]; opened: boolean; onClose(): void }) {
  const { assetIds, opened } = props;
  const [key, setKey] = useState<Key>("expires_at");
  const [draft, setDraft] = useState<RightsDraft>(draftOf(NO_RIGHTS));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const bulk = useBulkRights(props.workspaceId);
  useEffect(() => {
    if (opened) {
      setDraft(draftOf(NO_RIGHTS));
      setErrors({});
    }
  }, [opened]);

  const save = () => {
    const body = bodyOf(draft) as Record<string, unknown>;
    const changes = Object.fromEntries(KEYS[key].keys.map((k) => [k, body[k]])) as RightsChanges;
    bulk.mutate(
      { asset_ids: assetIds, changes },
      {
        onSuccess: (a) => {
          notifySuccess(`Rights updated for ${a.count} ${a.count === 1 ? "asset" : "assets"}`);
          props.onClose();
        },
        onError: (err) => {
          setErrors(fieldErrors(err));
          notifyError(errorMessage(err, "Failed to update the rights"));
        },
      },
    );
  };
  return (
    <Modal
      opened={opened}
      onClose={props.onClose}
      title={assetIds.length === 1 ? "Edit rights" : `Edit rights of ${assetIds.length} assets`}
    >
      <Stack>
        <Select
          label="Change"
          data={Object.entries(KEYS).map(([value, k]) => ({ value, label: k.label }))}
          value={key}
          onChange={(v) => v && setKey(v as Key)}
          allowDeselect={false}
          data-testid="bulk-rights-key"
        />
        <RightsForm draft={draft} onChange={setDraft} errors={errors} only={key} />
        <Text size="xs" c="dimmed">
          The other rights of each asset stay as they are.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={bulk.isPending} data-testid="bulk-rights-save">
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

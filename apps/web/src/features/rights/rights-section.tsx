import { type Asset, CC_LABELS, formatRightsDate, hasRights, LICENSE_LABELS, RIGHTS_MESSAGES } from "@hangar/contract";
import { Button, Group, Stack, Table, Text, Title } from "@mantine/core";
import { useState } from "react";
import { errorMessage, isApiError } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { useSaveRights } from "./api";
import { RightsBadge } from "./rights-badge";
import { bodyOf, draftOf, type RightsDraft, RightsForm } from "./rights-form";

/** The server's 422 field messages by field name (the first of each). */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isApiError(err)) for (const e of err.errors) out[e.field.split(".")[0]!] ??= e.message;
  return out;
}

/**
 * The viewer's "Rights" section (issue 33): the asset's usage rights as facts, a badge when they
 * are expiring or expired; EDITOR+ edit them in place (Save / Cancel), others only read.
 */
export function RightsSection({ asset, readOnly }: { asset: Asset; readOnly: boolean }) {
  const [draft, setDraft] = useState<RightsDraft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveRights(asset.workspace_id, asset.id);
  const r = asset.rights;
  const canEdit = !readOnly && asset.abilities.edit;

  const submit = () => {
    if (!draft) return;
    save.mutate(bodyOf(draft), {
      onSuccess: () => {
        notifySuccess(RIGHTS_MESSAGES.saved);
        setDraft(null);
        setErrors({});
      },
      onError: (err) => {
        setErrors(fieldErrors(err));
        notifyError(errorMessage(err, RIGHTS_MESSAGES.saveFailed));
      },
    });
  };

  const licence = r.license
    ? `${LICENSE_LABELS[r.license]}${r.cc_variant ? ` · ${CC_LABELS[r.cc_variant]}` : ""}`
    : null;
  const releases = [r.model_release && "Model", r.property_release && "Property"].filter(Boolean).join(", ");
  const rows: Array<[string, string | null]> = [
    ["Licence", licence],
    ["Credit", r.credit || null],
    ["Source", r.source || null],
    ["Territories", r.territories.join(", ") || null],
    ["Releases", releases || "None"],
    ["Expires", r.expires_at ? formatRightsDate(r.expires_at) : "Never"],
    ["Usage notes", r.usage_notes || null],
  ];

  return (
    <Stack gap={6} data-testid="rights-section">
      <Group justify="space-between" wrap="nowrap">
        <Title order={3} c="dimmed" tt="uppercase" fz={11} lts={0.5}>
          Rights
        </Title>
        {canEdit && !draft && (
          <Button size="compact-xs" variant="subtle" onClick={() => setDraft(draftOf(r))} data-testid="rights-edit">
            Edit
          </Button>
        )}
      </Group>
      <RightsBadge asset={asset} />
      {draft ? (
        <>
          <RightsForm draft={draft} onChange={setDraft} errors={errors} />
          <Group justify="flex-end" gap="xs">
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                setDraft(null);
                setErrors({});
              }}
            >
              Cancel
            </Button>
            <Button size="xs" onClick={submit} loading={save.isPending} data-testid="rights-save">
              Save
            </Button>
          </Group>
        </>
      ) : hasRights(r) ? (
        <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing={0} fz="sm">
          <Table.Tbody>
            {rows
              .filter(([, v]) => v !== null)
              .map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Td c="dimmed" w={110} style={{ verticalAlign: "top" }}>
                    {label}
                  </Table.Td>
                  <Table.Td style={{ wordBreak: "break-word", whiteSpace: "pre-line" }}>{value}</Table.Td>
                </Table.Tr>
              ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          No usage rights recorded.
        </Text>
      )}
    </Stack>
  );
}

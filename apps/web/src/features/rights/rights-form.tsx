import {
  type AssetRights,
  CC_LABELS,
  CC_VARIANTS,
  LICENSE_LABELS,
  RIGHTS_LICENSES,
  RIGHTS_NOTES_MAX,
  RIGHTS_TERRITORIES_MAX,
  RIGHTS_TEXT_MAX,
} from "@hangar/contract";
import { Checkbox, Group, Select, Stack, TagsInput, Textarea, TextInput } from "@mantine/core";

/** What the form edits: the contract's rights, the expiry as a plain date (the end of that day, UTC). */
export type RightsDraft = Omit<AssetRights, "expires_at"> & { expires_on: string };

export const draftOf = (r: AssetRights): RightsDraft => {
  const { expires_at, ...rest } = r;
  return { ...rest, expires_on: expires_at ? expires_at.slice(0, 10) : "" };
};

export const bodyOf = (d: RightsDraft) => {
  const { expires_on, ...rest } = d;
  return {
    ...rest,
    cc_variant: d.license === "creative_commons" ? d.cc_variant : null,
    expires_at: expires_on || null,
  };
};

const licenceOptions = RIGHTS_LICENSES.map((l) => ({ value: l, label: LICENSE_LABELS[l] }));
const ccOptions = CC_VARIANTS.map((v) => ({ value: v, label: CC_LABELS[v] }));

/**
 * The rights' inputs, used by the viewer's Rights section and the bulk dialog. `errors` are the
 * server's 422 messages by field; `only`: the bulk dialog's one key being changed (its inputs alone).
 */
export function RightsForm({
  draft,
  onChange,
  errors = {},
  only,
}: {
  draft: RightsDraft;
  onChange(next: RightsDraft): void;
  errors?: Record<string, string>;
  only?: "license" | "credit" | "source" | "usage_notes" | "territories" | "releases" | "expires_at";
}) {
  const set = <K extends keyof RightsDraft>(k: K, v: RightsDraft[K]) => onChange({ ...draft, [k]: v });
  const show = (k: NonNullable<typeof only>) => only === undefined || only === k;
  return (
    <Stack gap="xs" data-testid="rights-form">
      {show("license") && (
        <Select
          label="Licence"
          placeholder="Not set"
          data={licenceOptions}
          value={draft.license}
          onChange={(v) => set("license", v as RightsDraft["license"])}
          clearable
          error={errors.license}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      {show("license") && draft.license === "creative_commons" && (
        <Select
          label="Creative Commons variant"
          placeholder="Choose a variant"
          data={ccOptions}
          value={draft.cc_variant}
          onChange={(v) => set("cc_variant", v as RightsDraft["cc_variant"])}
          clearable
          error={errors.cc_variant}
        />
      )}
      {show("credit") && (
        <TextInput
          label="Credit / creator"
          value={draft.credit}
          maxLength={RIGHTS_TEXT_MAX}
          onChange={(e) => set("credit", e.currentTarget.value)}
          error={errors.credit}
        />
      )}
      {show("source") && (
        <TextInput
          label="Source"
          value={draft.source}
          maxLength={RIGHTS_TEXT_MAX}
          onChange={(e) => set("source", e.currentTarget.value)}
          error={errors.source}
        />
      )}
      {show("usage_notes") && (
        <Textarea
          label="Usage notes"
          autosize
          minRows={2}
          maxRows={6}
          maxLength={RIGHTS_NOTES_MAX}
          value={draft.usage_notes}
          onChange={(e) => set("usage_notes", e.currentTarget.value)}
          error={errors.usage_notes}
        />
      )}
      {show("territories") && (
        <TagsInput
          label="Territories"
          description="Country codes (DE, FR) or regions (Worldwide)"
          value={draft.territories}
          onChange={(v) => set("territories", v)}
          maxTags={RIGHTS_TERRITORIES_MAX}
          splitChars={[","]}
          acceptValueOnBlur
          clearable
          error={errors.territories}
        />
      )}
      {show("releases") && (
        <Group gap="lg">
          <Checkbox
            label="Model release"
            checked={draft.model_release}
            onChange={(e) => set("model_release", e.currentTarget.checked)}
          />
          <Checkbox
            label="Property release"
            checked={draft.property_release}
            onChange={(e) => set("property_release", e.currentTarget.checked)}
          />
        </Group>
      )}
      {show("expires_at") && (
        <TextInput
          type="date"
          label="Rights expire on"
          description="After this day the asset leaves every share link and review link"
          value={draft.expires_on}
          onChange={(e) => set("expires_on", e.currentTarget.value)}
          error={errors.expires_at}
          data-testid="rights-expires"
        />
      )}
    </Stack>
  );
}

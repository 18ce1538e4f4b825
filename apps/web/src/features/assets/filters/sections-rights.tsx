import { LICENSE_LABELS, RIGHTS_LICENSES, type RightsLicense } from "@hangar/contract";
import { Chip, Group, Input, SegmentedControl, Stack } from "@mantine/core";
import { TriState } from "./filter-inputs";
import type { SectionProps } from "./sections-basic";

const WITHIN = ["7", "14", "30", "90"] as const;

/**
 * Usage rights (issue 33): expiring within N days or expired, no model/property release, licence.
 * "Expiring" and "Expired" are one choice (the listing would AND them to nothing).
 */
export function RightsSection({ draft, set }: SectionProps) {
  const exp = draft.rights_expire;
  const mode = exp?.expired === true ? "expired" : exp?.within_days !== undefined ? "within" : "any";
  return (
    <Stack gap="sm">
      <Input.Wrapper label="Rights expiry">
        <SegmentedControl
          mt={4}
          size="xs"
          fullWidth
          value={mode}
          onChange={(v) =>
            set(
              ["rights_expire"],
              v === "expired" ? { expired: true } : v === "within" ? { within_days: 30 } : undefined,
            )
          }
          data={[
            { value: "any", label: "Any" },
            { value: "within", label: "Expiring" },
            { value: "expired", label: "Expired" },
          ]}
          aria-label="Rights expiry"
          data-testid="filter-rights-expiry"
        />
      </Input.Wrapper>
      {mode === "within" && (
        <Input.Wrapper label="Expiring within">
          <Chip.Group
            value={String(exp?.within_days ?? 30)}
            onChange={(v) => set(["rights_expire"], { within_days: Number(v) })}
          >
            <Group gap={6} mt={4} data-testid="filter-rights-within">
              {WITHIN.map((d) => (
                <Chip key={d} value={d} size="xs" radius="sm">
                  {d} days
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </Input.Wrapper>
      )}
      <TriState
        label="Model and property release"
        value={draft.no_release === undefined ? undefined : !draft.no_release}
        onChange={(v) => set(["no_release"], v === undefined ? undefined : !v)}
        yes="Has a release"
        no="No release"
      />
      <Input.Wrapper label="Licence is any of">
        <Chip.Group
          multiple
          value={[...(draft.rights_license?.includes ?? [])]}
          onChange={(v) => set(["rights_license"], v.length ? { includes: v as RightsLicense[] } : undefined)}
        >
          <Group gap={6} mt={4} data-testid="filter-rights-license">
            {RIGHTS_LICENSES.map((l) => (
              <Chip key={l} value={l} size="xs" radius="sm">
                {LICENSE_LABELS[l]}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Input.Wrapper>
    </Stack>
  );
}

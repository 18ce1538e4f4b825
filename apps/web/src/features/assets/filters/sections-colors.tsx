import type { ImageQualityFilter } from "@hangar/contract";
import { ColorInput, Input, RangeSlider, Stack } from "@mantine/core";
import { ColorNameToggles, HexListInput } from "./filter-inputs";
import type { SectionProps } from "./sections-basic";

export function ColorsSection({ draft, set }: SectionProps) {
  const colors = draft.colors;
  return (
    <Stack gap="sm">
      <ColorNameToggles
        value={colors?.simplified_colors?.includes}
        onChange={(v) => set(["colors", "simplified_colors", "includes"], v)}
      />
      <ColorInput
        label="Close to this colour"
        description="Matches main colours of the same family (CIELAB ΔE ≤ 20)"
        placeholder="#1e90ff"
        format="hex"
        withEyeDropper={false}
        value={colors?.color_search ?? ""}
        onChange={(v) => set(["colors", "color_search"], v || undefined)}
        popoverProps={{ withinPortal: true }}
      />
      <HexListInput
        label="Dominant colour is any of"
        value={colors?.dominant_colors?.includes}
        onChange={(v) => set(["colors", "dominant_colors", "includes"], v)}
      />
      <HexListInput
        label="Dominant colour is none of"
        value={colors?.dominant_colors?.excludes}
        onChange={(v) => set(["colors", "dominant_colors", "excludes"], v)}
      />
    </Stack>
  );
}

const METRICS = [
  { key: "contrast", label: "Contrast" },
  { key: "sharpness", label: "Sharpness" },
  { key: "brightness", label: "Brightness" },
] as const;

/** 0–100 ranges; a bound at its end is no condition (images without a score would otherwise drop out). */
export function QualitySection({ draft, set }: SectionProps) {
  const quality: ImageQualityFilter = draft.image_quality ?? {};
  return (
    <Stack gap="md">
      {METRICS.map(({ key, label }) => {
        const min = quality[`${key}_min`];
        const max = quality[`${key}_max`];
        return (
          <Input.Wrapper key={key} label={`${label}: ${min ?? 0}–${max ?? 100}`}>
            <RangeSlider
              mt={8}
              min={0}
              max={100}
              step={1}
              minRange={1}
              value={[min ?? 0, max ?? 100]}
              thumbFromLabel={`${label} minimum`}
              thumbToLabel={`${label} maximum`}
              onChange={([lo, hi]) => {
                set(["image_quality", `${key}_min`], lo > 0 ? lo : undefined);
                set(["image_quality", `${key}_max`], hi < 100 ? hi : undefined);
              }}
            />
          </Input.Wrapper>
        );
      })}
    </Stack>
  );
}

import { Divider, Group, Stack, TextInput } from "@mantine/core";
import { formatExposure, parseExposure, parsePositive } from "../../../entities/asset";
import { DateField, NumberListInput, RangeFields, TextListInput, TriState } from "./filter-inputs";
import type { SectionProps } from "./sections-basic";

const text = (v: string) => (v.trim() ? v : undefined);

export function ExifSection({ draft, set }: SectionProps) {
  const exif = draft.exif;
  const camera = exif?.camera;
  const tech = exif?.technical;
  const loc = exif?.location;
  return (
    <Stack gap="sm">
      <TextInput
        label="EXIF text"
        description="Camera make, model or lens"
        value={exif?.exif_search ?? ""}
        onChange={(e) => set(["exif", "exif_search"], text(e.currentTarget.value))}
      />

      <Divider label="Camera" labelPosition="left" />
      <TextListInput
        label="Make is any of"
        placeholder="Canon, Sony…"
        value={camera?.camera_makes}
        onChange={(v) => set(["exif", "camera", "camera_makes"], v)}
      />
      <TextListInput
        label="Model is any of"
        value={camera?.camera_models}
        onChange={(v) => set(["exif", "camera", "camera_models"], v)}
      />
      <TextInput
        label="Make or model contains"
        value={camera?.camera_search ?? ""}
        onChange={(e) => set(["exif", "camera", "camera_search"], text(e.currentTarget.value))}
      />

      <Divider label="Exposure" labelPosition="left" />
      <RangeFields
        label="ISO"
        min={tech?.iso_min}
        max={tech?.iso_max}
        bounds={[0, 1_000_000]}
        step={100}
        onChange={(min, max) => {
          set(["exif", "technical", "iso_min"], min);
          set(["exif", "technical", "iso_max"], max);
        }}
      />
      <NumberListInput
        label="Aperture is any of"
        placeholder="f/1.8, 2.8…"
        value={tech?.aperture_values}
        onChange={(v) => set(["exif", "technical", "aperture_values"], v)}
        parse={parsePositive}
        format={(n) => `f/${n}`}
      />
      <NumberListInput
        label="Exposure time is any of"
        placeholder="1/125, 0.5…"
        value={tech?.exposure_times}
        onChange={(v) => set(["exif", "technical", "exposure_times"], v)}
        parse={parseExposure}
        format={formatExposure}
      />
      <NumberListInput
        label="Focal length is any of"
        placeholder="35, 50mm…"
        value={tech?.focal_lengths}
        onChange={(v) => set(["exif", "technical", "focal_lengths"], v)}
        parse={parsePositive}
        format={(n) => `${n} mm`}
      />
      <Group gap="xs" grow>
        <DateField
          label="Taken from"
          value={tech?.date_taken_from}
          onChange={(v) => set(["exif", "technical", "date_taken_from"], v)}
        />
        <DateField
          label="Taken until"
          value={tech?.date_taken_to}
          onChange={(v) => set(["exif", "technical", "date_taken_to"], v)}
        />
      </Group>

      <Divider label="Location" labelPosition="left" />
      <TriState
        label="GPS position"
        value={loc?.has_gps}
        onChange={(v) => set(["exif", "location", "has_gps"], v)}
        yes="Has GPS"
        no="No GPS"
      />
      {(["latitude", "longitude", "altitude"] as const).map((axis) => (
        <RangeFields
          key={axis}
          label={axis === "altitude" ? "Altitude" : axis === "latitude" ? "Latitude" : "Longitude"}
          min={loc?.[`${axis}_min`]}
          max={loc?.[`${axis}_max`]}
          bounds={axis === "latitude" ? [-90, 90] : axis === "longitude" ? [-180, 180] : undefined}
          step={axis === "altitude" ? 10 : 0.1}
          unit={axis === "altitude" ? "m" : "°"}
          onChange={(min, max) => {
            set(["exif", "location", `${axis}_min`], min);
            set(["exif", "location", `${axis}_max`], max);
          }}
        />
      ))}
    </Stack>
  );
}

import {
  fillWatermarkText,
  WATERMARK_PLACEHOLDERS,
  WATERMARK_POSITIONS,
  WATERMARK_TEXT_MAX,
  type Watermark,
  type WatermarkPosition,
} from "@hangar/contract";
import { Box, Button, Group, Select, Slider, Stack, Switch, Text, TextInput } from "@mantine/core";
import { type CSSProperties, useState } from "react";

const POSITION_LABELS: Record<WatermarkPosition, string> = {
  "top-left": "Top left",
  top: "Top",
  "top-right": "Top right",
  left: "Left",
  center: "Centre",
  right: "Right",
  "bottom-left": "Bottom left",
  bottom: "Bottom",
  "bottom-right": "Bottom right",
  tiled: "Tiled across",
};

const DEFAULT_MARK: Watermark = {
  kind: "text",
  text: "Shared with {visitor} · {date}",
  position: "bottom-right",
  opacity: 0.6,
  size: 60,
  apply_to_downloads: false,
};

/** The preview's tiled marks (stable keys). */
const TILES = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];

/** Where the preview's mark sits (CSS of the server's nine positions; tiled repeats it). */
function placement(position: WatermarkPosition): CSSProperties {
  const col = position.endsWith("left") ? "flex-start" : position.endsWith("right") ? "flex-end" : "center";
  const row = position.startsWith("top") ? "flex-start" : position.startsWith("bottom") ? "flex-end" : "center";
  return { justifyContent: col, alignItems: row };
}

/** A picture-shaped preview of the mark with sample values in the placeholders. */
function WatermarkPreview(props: { mark: Watermark; title: string }) {
  const { mark } = props;
  const text = fillWatermarkText(mark.text || " ", {
    visitor: "ada@example.com",
    link: props.title,
    date: new Date().toISOString().slice(0, 10),
  });
  const label = (
    <Text
      component="span"
      fw={700}
      c="white"
      style={{
        // The server's rule in the preview's own width (cqw): the mark spans `size` % of it, ≈0.7 em a character.
        fontSize: `${mark.size / (0.7 * Math.max(1, [...text].length))}cqw`,
        whiteSpace: "nowrap",
        textShadow: "0 0 2px rgba(0,0,0,.7)",
      }}
    >
      {text}
    </Text>
  );
  return (
    <Box
      role="img"
      aria-label={`Preview: "${text}", ${POSITION_LABELS[mark.position]}`}
      data-testid="watermark-preview"
      style={{
        position: "relative",
        containerType: "inline-size",
        aspectRatio: "16 / 10",
        width: "100%",
        maxWidth: 320,
        borderRadius: 6,
        overflow: "hidden",
        background: "linear-gradient(135deg, #4a6fa5 0%, #88a8c8 45%, #c9a66b 100%)",
      }}
    >
      <Box
        style={{
          position: "absolute",
          inset: "4%",
          display: "flex",
          opacity: mark.opacity,
          ...(mark.position === "tiled"
            ? { flexWrap: "wrap", gap: "10px 18px", transform: "rotate(-30deg) scale(1.5)", alignContent: "center" }
            : placement(mark.position)),
        }}
      >
        {mark.position === "tiled" ? TILES.map((tile) => <span key={tile}>{label}</span>) : label}
      </Box>
    </Box>
  );
}

/**
 * The share dialog's "Watermark" section (issue 33): a text with placeholders, its position,
 * opacity and size, a preview, and whether downloads are stamped too. Saved as one setting of the
 * link; visitors' pictures change at once (members never see it).
 */
export function WatermarkSection(props: {
  watermark: Watermark | null;
  allowDownloads: boolean;
  title: string;
  saving: boolean;
  onSave(watermark: Watermark | null): void;
}) {
  const saved = props.watermark ?? null;
  const [on, setOn] = useState(saved !== null);
  const [mark, setMark] = useState<Watermark>(saved ?? DEFAULT_MARK);
  const set = (patch: Partial<Watermark>) => setMark((m) => ({ ...m, ...patch }));
  const changed = JSON.stringify(mark) !== JSON.stringify(saved);
  const textError = mark.text.trim() === "" ? "Enter the watermark's text" : null;

  return (
    <Stack gap="sm" data-testid="watermark-section">
      <Switch
        label="Watermark what visitors see"
        description="Previews, document pages and video carry it; members never see it."
        checked={on}
        onChange={(e) => {
          const next = e.currentTarget.checked;
          setOn(next);
          if (!next && saved) props.onSave(null);
        }}
        data-testid="watermark-toggle"
      />
      {on && (
        <Stack gap="sm" pl="md">
          <TextInput
            label="Text"
            description={`Placeholders: ${WATERMARK_PLACEHOLDERS.join(", ")}`}
            value={mark.text}
            maxLength={WATERMARK_TEXT_MAX}
            error={textError}
            onChange={(e) => set({ text: e.currentTarget.value })}
            data-testid="watermark-text"
          />
          <Select
            label="Position"
            data={WATERMARK_POSITIONS.map((p) => ({ value: p, label: POSITION_LABELS[p] }))}
            value={mark.position}
            allowDeselect={false}
            onChange={(v) => v && set({ position: v as WatermarkPosition })}
            comboboxProps={{ withinPortal: true }}
            data-testid="watermark-position"
          />
          <div>
            <Text size="sm" fw={500} id="watermark-opacity-label">
              Opacity {Math.round(mark.opacity * 100)} %
            </Text>
            <Slider
              min={0.1}
              max={1}
              step={0.05}
              value={mark.opacity}
              onChange={(v) => set({ opacity: v })}
              label={(v) => `${Math.round(v * 100)} %`}
              thumbProps={{ "aria-labelledby": "watermark-opacity-label" }}
            />
          </div>
          <div>
            <Text size="sm" fw={500} id="watermark-size-label">
              Size {mark.size} % of the width
            </Text>
            <Slider
              min={5}
              max={80}
              step={5}
              value={mark.size}
              onChange={(v) => set({ size: v })}
              thumbProps={{ "aria-labelledby": "watermark-size-label" }}
            />
          </div>
          <WatermarkPreview mark={mark} title={props.title} />
          <Switch
            label="Also stamp downloaded images and PDFs"
            description={props.allowDownloads ? undefined : "Applies once downloads are allowed."}
            checked={mark.apply_to_downloads}
            onChange={(e) => set({ apply_to_downloads: e.currentTarget.checked })}
            data-testid="watermark-downloads"
          />
          <Group justify="flex-end">
            <Button
              size="sm"
              variant="light"
              disabled={!changed || textError !== null}
              loading={props.saving}
              onClick={() => props.onSave({ ...mark, text: mark.text.trim() })}
              data-testid="watermark-save"
            >
              {saved ? "Save watermark" : "Add watermark"}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

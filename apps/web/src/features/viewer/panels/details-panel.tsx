import { type Asset, formatBytes } from "@hangar/contract";
import {
  Badge,
  Box,
  Group,
  Progress,
  Stack,
  Table,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
  UnstyledButton,
} from "@mantine/core";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router-dom";
import { encodeFilters, FILE_TYPE_LABELS, formatExposure, PARAM, useWorkspaceTags } from "../../../entities/asset";
import { formatDuration, relativeTime } from "../../../entities/format";
import { ObjectHistory } from "../../audit";
import { RecognisedTextSection } from "../../fields";
import { FacesSection } from "../../people";
import { RightsSection } from "../../rights";
import { useAutosaveAsset, useSaveTags } from "../api";
import { ReviewHistory } from "../review/review-history";
import { useAutosave } from "../use-autosave";
import { VIEWER_MESSAGES } from "../viewer-constants";

const NA = VIEWER_MESSAGES.notAvailable;

/** "Canon EOS R5", not "Canon Canon EOS R5": most models already start with the make. */
function cameraName(make: string | null, model: string | null): string | null {
  if (!model) return make;
  if (!make || model.toLowerCase().startsWith(make.toLowerCase().split(/\s+/)[0] ?? "")) return model;
  return `${make} ${model}`;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={3} c="dimmed" tt="uppercase" fz={11} lts={0.5}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Facts({ rows }: { rows: Array<[string, string | null | undefined]> }) {
  const shown = rows.filter(([, v]) => v !== null && v !== undefined && v !== "");
  if (!shown.length) return null;
  return (
    <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing={0} fz="sm">
      <Table.Tbody>
        {shown.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Td c="dimmed" w={110} style={{ verticalAlign: "top" }}>
              {label}
            </Table.Td>
            <Table.Td
              style={{ wordBreak: "break-word" }}
              data-testid={`fact-${label.toLowerCase().replace(/\W+/g, "-")}`}
            >
              {value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Name, description and tags (editable unless read-only), then what the pipeline found.
 * `shared`: in a shared view the palette only tells its colours (there is no grid to filter), and
 * `recognisedText` is the link's own "Text in image" (members read it through theirs).
 */
export function DetailsPanel({
  asset,
  readOnly,
  shared,
  recognisedText,
}: {
  asset: Asset;
  readOnly: boolean;
  shared?: boolean;
  recognisedText?: React.ReactNode;
}) {
  const ws = asset.workspace_id;
  const save = useAutosaveAsset(ws, asset.id);
  const saveTags = useSaveTags(ws, asset.id);
  const suggestions = useWorkspaceTags(ws, !readOnly);
  const navigate = useNavigate();
  const [tags, setTags] = useState<string[] | null>(null);
  const shownTags = tags ?? asset.tags;

  const name = useAutosave(
    asset.name,
    (typed) => {
      const trimmed = typed.trim();
      return trimmed && trimmed !== asset.name ? trimmed : undefined;
    },
    (value: string) => save.mutateAsync({ name: value }),
  );
  const description = useAutosave(
    asset.description ?? "",
    (typed) => {
      const value = typed.trim() ? typed : null;
      return value === (asset.description ?? null) ? undefined : { value };
    },
    ({ value }: { value: string | null }) => save.mutateAsync({ description: value }),
  );

  const onTags = (next: string[]) => {
    // Add-unique (any case); the whole list is sent on each change and reverts on failure.
    const seen = new Set<string>();
    const unique = next
      .map((t) => t.trim())
      .filter((t) => t && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
    setTags(unique);
    saveTags.mutate(unique, { onSettled: () => setTags(null) });
  };
  const tagOptions = useMemo(() => (suggestions.data ?? []).map((t) => t.name), [suggestions.data]);

  const exif = asset.exif;
  const dimensions = asset.width && asset.height ? `${asset.width} × ${asset.height}` : null;
  const gps =
    exif?.latitude != null && exif.longitude != null
      ? `${exif.latitude.toFixed(5)}, ${exif.longitude.toFixed(5)}`
      : null;
  const filterByColour = (hex: string) => {
    const f = encodeFilters({ colors: { color_search: hex.toUpperCase() } });
    navigate(`/w/${ws}/b/all?${PARAM.filters}=${f}`);
  };

  return (
    <Stack gap="lg" data-testid="details-panel">
      <Stack gap="xs">
        <TextInput
          label="Name"
          value={name.text}
          onChange={(e) => name.onChange(e.currentTarget.value)}
          onBlur={() => {
            if (!name.text.trim()) name.onChange(asset.name);
          }}
          readOnly={readOnly}
          data-testid="details-name"
        />
        <Textarea
          label="Description"
          placeholder={readOnly ? undefined : "Add a description"}
          autosize
          minRows={2}
          maxRows={8}
          value={description.text}
          onChange={(e) => description.onChange(e.currentTarget.value)}
          readOnly={readOnly}
          data-testid="details-description"
        />
        <TagsInput
          label="Tags"
          placeholder={readOnly ? undefined : "Add a tag"}
          data={tagOptions}
          value={shownTags}
          onChange={onTags}
          readOnly={readOnly}
          clearable={false}
          splitChars={[","]}
          acceptValueOnBlur
          data-testid="details-tags"
        />
      </Stack>

      {!shared && <RightsSection key={asset.id} asset={asset} readOnly={readOnly} />}

      {!shared && (
        <ReviewHistory workspaceId={ws} assetId={asset.id} latestReviewId={asset.approval?.review_id ?? null} />
      )}

      {!shared && <FacesSection workspaceId={ws} assetId={asset.id} />}
      {!shared && (
        <Section title="Activity">
          <ObjectHistory key={asset.id} workspaceId={ws} kind="asset" id={asset.id} />
        </Section>
      )}

      {asset.ai_tag_details.length > 0 && (
        <Section title="AI tags">
          <Group gap={6}>
            {asset.ai_tag_details.map((t) => (
              <Tooltip key={`${t.type}:${t.label}`} label={`${t.type} · ${Math.round(t.confidence * 100)}% confidence`}>
                <Badge variant="light" color="violet" tt="none">
                  {t.label} {Math.round(t.confidence * 100)}%
                </Badge>
              </Tooltip>
            ))}
          </Group>
        </Section>
      )}

      {shared ? recognisedText : <RecognisedTextSection workspaceId={ws} assetId={asset.id} />}

      <Section title="File">
        <Facts
          rows={[
            ["Type", FILE_TYPE_LABELS[asset.file_type]],
            ["Extension", asset.file_extension ? asset.file_extension.toUpperCase() : NA],
            ["Size", formatBytes(asset.size)],
            ["Dimensions", dimensions],
            ["Duration", asset.duration ? formatDuration(asset.duration) : null],
            ["Pages", asset.page_count ? String(asset.page_count) : null],
            ["Created", relativeTime(asset.created_at)],
            ["Updated", relativeTime(asset.updated_at)],
          ]}
        />
      </Section>

      {exif && (
        <Section title="Camera">
          <Facts
            rows={[
              ["Camera", cameraName(exif.make, exif.model)],
              ["Lens", exif.lens],
              ["Exposure", exif.exposure_time ? formatExposure(exif.exposure_time) : null],
              ["Aperture", exif.aperture ? `f/${exif.aperture}` : null],
              ["ISO", exif.iso ? String(exif.iso) : null],
              ["Focal length", exif.focal_length ? `${exif.focal_length} mm` : null],
              ["Date taken", exif.date_taken ? new Date(exif.date_taken).toLocaleString() : NA],
              ["GPS", gps],
            ]}
          />
        </Section>
      )}

      {asset.colors && asset.colors.palette.length > 0 && (
        <Section title="Colours">
          <Group gap={4} wrap="nowrap" data-testid="palette">
            {asset.colors.palette.map((c) => (
              <Tooltip
                key={c.hex}
                label={`${c.hex} · ${Math.round(c.share * 100)}%${shared ? "" : " — show assets near this colour"}`}
              >
                <UnstyledButton
                  aria-label={shared ? `Colour ${c.hex}` : `Filter by colour ${c.hex}`}
                  onClick={() => !shared && filterByColour(c.hex)}
                  style={{
                    flex: Math.max(c.share, 0.06),
                    // A tap target of 24 px at least, however small the colour's share.
                    minWidth: 24,
                    height: 28,
                    borderRadius: 4,
                    background: c.hex,
                    border: "1px solid rgba(0,0,0,0.15)",
                  }}
                />
              </Tooltip>
            ))}
          </Group>
          {asset.colors.simplified.length > 0 && (
            <Text size="xs" c="dimmed">
              {asset.colors.simplified.join(", ")}
            </Text>
          )}
        </Section>
      )}

      {asset.quality && (
        <Section title="Quality">
          {(["sharpness", "contrast", "brightness"] as const).map((k) => (
            <Box key={k}>
              <Group justify="space-between">
                <Text size="xs" tt="capitalize">
                  {k}
                </Text>
                <Text size="xs" c="dimmed">
                  {Math.round(asset.quality![k])} / 100
                </Text>
              </Group>
              <Progress.Root size="sm">
                <Progress.Section value={asset.quality![k]} aria-label={k} />
              </Progress.Root>
            </Box>
          ))}
        </Section>
      )}
    </Stack>
  );
}

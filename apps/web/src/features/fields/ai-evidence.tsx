import type { AiActionResult, AiEvidence, RecognisedText } from "@hangar/contract";
import { Box, ColorSwatch, Group, HoverCard, Loader, Spoiler, Stack, Text, Title } from "@mantine/core";
import { IconSparkles } from "@tabler/icons-react";
import { useAiResults, useRecognisedText } from "./ai-api";

const pct = (n: number) => `${Math.round(n * 100)}%`;

/** The asset's picture (grid rendition) the boxes are drawn on, when it has one. */
export interface Picture {
  url: string;
  width: number;
  height: number;
}

/**
 * The boxes of the evidence (0–1 coordinates) drawn over the asset's picture, or over a plain frame
 * of the same shape: where in the picture it was seen.
 */
function Boxes({ boxes, picture }: { boxes: Array<{ box: number[]; xyxy?: boolean }>; picture: Picture | null }) {
  if (!boxes.length) return null;
  const w = 248;
  const h = picture ? Math.max(40, Math.min(220, Math.round((w * picture.height) / picture.width))) : 140;
  return (
    <Box pos="relative" w={w} h={h} bg="gray.1" style={{ borderRadius: 4, overflow: "hidden" }} data-testid="ai-boxes">
      {picture && <img src={picture.url} alt="" width={w} height={h} style={{ display: "block", objectFit: "fill" }} />}
      <svg
        width={w}
        height={h}
        viewBox="0 0 1 1"
        preserveAspectRatio="none"
        role="img"
        aria-label="Where it was seen"
        style={{ position: "absolute", inset: 0 }}
      >
        {boxes.map((b, i) => {
          const [x, y, a, c] = b.box as [number, number, number, number];
          const [bw, bh] = b.xyxy ? [a - x, c - y] : [a, c];
          return (
            <rect
              // biome-ignore lint/suspicious/noArrayIndexKey: boxes have no identity of their own
              key={i}
              x={x}
              y={y}
              width={bw}
              height={bh}
              fill="var(--mantine-color-grape-3)"
              fillOpacity={0.25}
              stroke="var(--mantine-color-grape-7)"
              strokeWidth={2}
              vectorEffect="non-scaling-stroke"
            />
          );
        })}
      </svg>
    </Box>
  );
}

function EvidenceView({ e, picture }: { e: AiEvidence; picture: Picture | null }) {
  return (
    <Stack gap={4}>
      {e.objects && e.objects.length > 0 && (
        <>
          {e.objects.map((o) => (
            <Text key={o.label} size="xs">
              Saw <b>{o.label}</b> at {pct(o.confidence)} confidence
            </Text>
          ))}
          <Boxes boxes={e.objects.filter((o) => o.box).map((o) => ({ box: o.box! }))} picture={picture} />
        </>
      )}
      {e.words && e.words.length > 0 && (
        <>
          <Text size="xs">
            Read “{e.words.map((w) => w.text).join(" ")}”{e.words[0]!.page > 1 ? ` on page ${e.words[0]!.page}` : ""}
          </Text>
          {/* A document's picture is its first page: boxes of later pages go on a plain frame. */}
          <Boxes
            boxes={e.words.map((w) => ({ box: w.box, xyxy: true }))}
            picture={e.words.every((w) => w.page === 1) ? picture : null}
          />
        </>
      )}
      {e.colors?.map((c) => (
        <Group key={c.hex} gap={6}>
          <ColorSwatch color={c.hex} size={14} />
          <Text size="xs">
            {c.hex} covers {pct(c.share)}, ΔE {c.distance}
          </Text>
        </Group>
      ))}
      {e.quality && (
        <Text size="xs">
          {Object.entries(e.quality)
            .map(([k, v]) => `${k} ${v}`)
            .join(" · ")}
        </Text>
      )}
      {e.metadata &&
        Object.entries(e.metadata).map(([k, v]) => (
          <Text key={k} size="xs">
            {k.replace(/_/g, " ")}: {v ?? "—"}
          </Text>
        ))}
      {e.note && (
        <Text size="xs" c="dimmed">
          {e.note}
        </Text>
      )}
    </Stack>
  );
}

/** The AI mark beside a value an action set; hovering shows what that action saw. */
export function AiMark({
  workspaceId,
  assetId,
  fieldId,
  picture,
}: {
  workspaceId: string;
  assetId: string;
  fieldId: string;
  picture: Picture | null;
}) {
  return (
    <HoverCard width={280} shadow="md" withArrow openDelay={150} position="bottom-start">
      <HoverCard.Target>
        <Group gap={4} mt={2} data-testid="ai-mark" style={{ cursor: "help", width: "fit-content" }}>
          <IconSparkles size={12} color="var(--mantine-color-grape-6)" />
          <Text size="xs" c="grape">
            AI
          </Text>
        </Group>
      </HoverCard.Target>
      <HoverCard.Dropdown data-testid="ai-evidence">
        <Evidence workspaceId={workspaceId} assetId={assetId} fieldId={fieldId} picture={picture} />
      </HoverCard.Dropdown>
    </HoverCard>
  );
}

function Evidence({
  workspaceId,
  assetId,
  fieldId,
  picture,
}: {
  workspaceId: string;
  assetId: string;
  fieldId: string;
  picture: Picture | null;
}) {
  const results = useAiResults(workspaceId, assetId, true);
  if (results.isPending) return <Loader size="xs" />;
  if (results.isError) return <Text size="xs">Set by an AI action</Text>;
  const setters = results.data.filter((r: AiActionResult) => r.field_id === fieldId && r.set_value);
  if (!setters.length) return <Text size="xs">Set by an AI action</Text>;
  return (
    <Stack gap="xs">
      {setters.map((r) => (
        <Stack key={r.id} gap={4}>
          <Text size="xs" fw={600}>
            “{r.option_label}” set by AI · {pct(r.confidence)}
          </Text>
          <EvidenceView e={r.evidence} picture={picture} />
        </Stack>
      ))}
    </Stack>
  );
}

/** The viewer's "Text in image" section for members: what OCR read, through the members' call. */
export function RecognisedTextSection({ workspaceId, assetId }: { workspaceId: string; assetId: string }) {
  return <RecognisedTextView text={useRecognisedText(workspaceId, assetId)} />;
}

/**
 * "Text in image": what OCR read, collapsed when long; nothing when none. The members' section and
 * the shared view (which reads it through the link, issue 35) show the same.
 */
export function RecognisedTextView({ text }: { text: { data?: RecognisedText | undefined } }) {
  if (!text.data || (text.data.status === "done" && !text.data.text) || text.data.status === "none") return null;
  return (
    <Stack gap={6} data-testid="recognised-text">
      <Title order={3} c="dimmed" tt="uppercase" fz={11} lts={0.5}>
        Text in image
      </Title>
      {text.data.status === "pending" ? (
        <Group gap={8} role="status">
          <Loader size={14} />
          <Text size="sm" c="dimmed">
            Reading text…
          </Text>
        </Group>
      ) : text.data.status === "failed" ? (
        <Text size="sm" c="dimmed">
          {text.data.error ?? "Text could not be read"}
        </Text>
      ) : (
        <Spoiler maxHeight={84} showLabel="Show all" hideLabel="Show less">
          <Box fz="sm" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
            {text.data.text}
          </Box>
        </Spoiler>
      )}
    </Stack>
  );
}

import { Input, SegmentedControl, Slider, Stack } from "@mantine/core";
import { useMemo } from "react";
import { useWorkspaceAiTags, useWorkspaceTags } from "../../../entities/asset";
import { TextListInput } from "./filter-inputs";
import type { SectionProps } from "./sections-basic";

export function TagsSection({ draft, set, workspaceId }: SectionProps & { workspaceId: string }) {
  const tags = useWorkspaceTags(workspaceId);
  const names = useMemo(() => (tags.data ?? []).map((t) => t.name), [tags.data]);
  return (
    <Stack gap="sm">
      <TextListInput
        label="Has any of these tags"
        value={draft.tags?.includes}
        onChange={(v) => set(["tags", "includes"], v)}
        data={names}
      />
      <TextListInput
        label="Has none of these tags"
        value={draft.tags?.excludes}
        onChange={(v) => set(["tags", "excludes"], v)}
        data={names}
      />
    </Stack>
  );
}

type Source = "any" | "ai" | "manual";

export function AiTagsSection({ draft, set, workspaceId }: SectionProps & { workspaceId: string }) {
  const aiTags = useWorkspaceAiTags(workspaceId);
  const labels = useMemo(() => [...new Set((aiTags.data ?? []).map((t) => t.name))], [aiTags.data]);
  const types = useMemo(() => [...new Set((aiTags.data ?? []).map((t) => t.type))], [aiTags.data]);
  const ai = draft.ai_tags;
  const source: Source = ai?.ai_only ? "ai" : ai?.manual_only ? "manual" : "any";
  const confidence = Math.round((ai?.min_confidence ?? 0) * 100);
  return (
    <Stack gap="sm">
      <TextListInput
        label="Has any of these labels"
        value={ai?.includes}
        onChange={(v) => set(["ai_tags", "includes"], v)}
        data={labels}
      />
      <TextListInput
        label="Has none of these labels"
        value={ai?.excludes}
        onChange={(v) => set(["ai_tags", "excludes"], v)}
        data={labels}
      />
      <Input.Wrapper label="Labels come from">
        <SegmentedControl
          mt={4}
          fullWidth
          size="xs"
          aria-label="Labels come from"
          value={source}
          onChange={(v) => {
            set(["ai_tags", "ai_only"], v === "ai" ? true : undefined);
            set(["ai_tags", "manual_only"], v === "manual" ? true : undefined);
          }}
          data={[
            { value: "any", label: "AI or manual" },
            { value: "ai", label: "AI only" },
            { value: "manual", label: "Manual only" },
          ]}
        />
      </Input.Wrapper>
      <TextListInput
        label="AI tag types"
        placeholder={types.length ? "object, scene…" : "Type and press Enter"}
        value={ai?.tag_types}
        onChange={(v) => set(["ai_tags", "tag_types"], v)}
        data={types}
      />
      <Input.Wrapper label={`Minimum AI confidence: ${confidence}%`}>
        <Slider
          mt={8}
          mb={4}
          min={0}
          max={100}
          step={5}
          value={confidence}
          label={(v) => `${v}%`}
          aria-label="Minimum AI confidence"
          onChange={(v) => set(["ai_tags", "min_confidence"], v > 0 ? v / 100 : undefined)}
        />
      </Input.Wrapper>
    </Stack>
  );
}

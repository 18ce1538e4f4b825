import { SMART_BOARD_MESSAGES } from "@hangar/contract";
import { Accordion, Badge, Button, Drawer, Group, Stack, Text } from "@mantine/core";
import { IconFilterBolt } from "@tabler/icons-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { type AssetFilters, getIn, pruneFilters, setIn, useWorkspaceTags } from "../../../entities/asset";
import { PeopleFilterSection } from "../../people";
import { filterChips } from "./filter-chips";
import { OrGroupsSection } from "./or-groups-section";
import { ApprovalSection } from "./sections-approval";
import { FavouriteDatesSection, type SetFilter, TypeSection } from "./sections-basic";
import { ColorsSection, QualitySection } from "./sections-colors";
import { ExifSection } from "./sections-exif";
import { CustomFieldsSection } from "./sections-fields";
import { RightsSection } from "./sections-rights";
import { AiTagsSection, TagsSection } from "./sections-tags";

/** Which chips belong to a section, to show a count on its header. */
const SECTION_KEYS: Record<string, string[]> = {
  type: ["file_type", "file_extension"],
  favourites: ["favorite", "has_open_comments", "has_versions", "date_uploaded_from", "date_uploaded_to"],
  approval: ["approval_status"],
  rights: ["rights_expire", "no_release", "rights_license"],
  people: ["people"],
  tags: ["tags"],
  ai: ["ai_tags"],
  colours: ["colors"],
  quality: ["image_quality"],
  exif: ["exif"],
  fields: ["custom_fields"],
  groups: ["or_groups"],
};

const SECTIONS = [
  { value: "type", title: "File type" },
  { value: "favourites", title: "Favourites, review and upload date" },
  { value: "approval", title: "Approval status" },
  { value: "rights", title: "Usage rights" },
  { value: "people", title: "People" },
  { value: "tags", title: "Tags" },
  { value: "ai", title: "AI tags" },
  { value: "colours", title: "Colours" },
  { value: "quality", title: "Image quality" },
  { value: "exif", title: "Camera, exposure and location" },
  { value: "fields", title: "Custom fields" },
  { value: "groups", title: "Match any of (groups)" },
] as const;

/**
 * The filter builder: every filter kind of the listing contract, edited as a draft and applied at
 * once (which writes them to the URL and starts the grid again at page 1).
 */
export function FilterDrawer({
  opened,
  onClose,
  workspaceId,
  value,
  onApply,
  onSaveAsSmart,
  title = "Filters",
  applyLabel,
}: {
  opened: boolean;
  onClose: () => void;
  workspaceId: string;
  value: AssetFilters;
  onApply: (filters: AssetFilters) => void;
  /** Issue 33: "Save as smart board" with the draft as it stands. */
  onSaveAsSmart?: (filters: AssetFilters) => void;
  title?: string;
  /** The apply button's text (editing a smart board's filter saves it). */
  applyLabel?: string;
}) {
  const [draft, setDraft] = useState<AssetFilters>(value);
  const [expanded, setExpanded] = useState<string[]>([]);
  // Each opening starts from what the URL holds, with the sections that hold something open.
  useEffect(() => {
    if (!opened) return;
    setDraft(value);
    const used = SECTIONS.filter((s) => SECTION_KEYS[s.value]?.some((k) => getIn(value, [k]) !== undefined));
    setExpanded(used.length ? used.map((s) => s.value) : ["type", "tags", "colours"]);
  }, [opened, value]);

  const set: SetFilter = useCallback((path, v) => setDraft((d) => setIn(d, path, v)), []);
  const tags = useWorkspaceTags(workspaceId, opened);
  const tagNames = useMemo(() => (tags.data ?? []).map((t) => t.name), [tags.data]);

  const pruned = pruneFilters(draft);
  const count = filterChips(pruned).length;

  const sectionCount = (key: string) =>
    filterChips(Object.fromEntries((SECTION_KEYS[key] ?? []).map((k) => [k, getIn(pruned, [k])])) as AssetFilters)
      .length;

  const body: Record<(typeof SECTIONS)[number]["value"], React.ReactNode> = {
    type: <TypeSection draft={draft} set={set} />,
    favourites: <FavouriteDatesSection draft={draft} set={set} />,
    approval: <ApprovalSection draft={draft} set={set} />,
    rights: <RightsSection draft={draft} set={set} />,
    people: <PeopleFilterSection draft={draft} set={set} workspaceId={workspaceId} />,
    tags: <TagsSection draft={draft} set={set} workspaceId={workspaceId} />,
    ai: <AiTagsSection draft={draft} set={set} workspaceId={workspaceId} />,
    colours: <ColorsSection draft={draft} set={set} />,
    quality: <QualitySection draft={draft} set={set} />,
    exif: <ExifSection draft={draft} set={set} />,
    fields: <CustomFieldsSection draft={draft} set={set} workspaceId={workspaceId} />,
    groups: <OrGroupsSection draft={draft} set={set} tagNames={tagNames} workspaceId={workspaceId} />,
  };

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={460}
      title={
        <Text fw={650} size="lg">
          {title}
        </Text>
      }
      padding={0}
      styles={{ header: { paddingInline: "var(--mantine-spacing-md)" }, body: { padding: 0 } }}
      data-testid="filter-drawer"
    >
      <Stack gap={0} style={{ minHeight: "calc(100dvh - 60px)" }}>
        <Accordion
          multiple
          value={expanded}
          onChange={setExpanded}
          variant="default"
          chevronPosition="right"
          style={{ flex: 1 }}
        >
          {SECTIONS.map((section) => {
            const n = sectionCount(section.value);
            return (
              <Accordion.Item key={section.value} value={section.value}>
                <Accordion.Control>
                  <Group gap="xs" wrap="nowrap">
                    <Text size="sm" fw={600}>
                      {section.title}
                    </Text>
                    {n > 0 && (
                      <Badge size="sm" variant="light" circle>
                        {n}
                      </Badge>
                    )}
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>{body[section.value]}</Accordion.Panel>
              </Accordion.Item>
            );
          })}
        </Accordion>
        <Stack
          gap="xs"
          p="md"
          style={{
            position: "sticky",
            bottom: 0,
            background: "var(--mantine-color-body)",
            borderTop: "1px solid var(--mantine-color-gray-3)",
            zIndex: 2,
          }}
        >
          {onSaveAsSmart && (
            <Button
              variant="light"
              color="violet"
              leftSection={<IconFilterBolt size={16} />}
              disabled={count === 0}
              onClick={() => onSaveAsSmart(pruned)}
              data-testid="save-smart-board"
            >
              {SMART_BOARD_MESSAGES.saveAs}
            </Button>
          )}
          <Group justify="space-between">
            <Button variant="subtle" color="gray" onClick={() => setDraft({})} disabled={count === 0}>
              Reset all
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button
                onClick={() => {
                  onApply(pruned);
                  onClose();
                }}
                data-testid="apply-filters"
              >
                {applyLabel ?? (count ? `Apply ${count} filter${count === 1 ? "" : "s"}` : "Apply")}
              </Button>
            </Group>
          </Group>
        </Stack>
      </Stack>
    </Drawer>
  );
}

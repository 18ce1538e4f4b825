import type { OrGroup } from "@hangar/contract";
import { ActionIcon, Button, Collapse, ColorInput, Group, Paper, Stack, Text, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconChevronDown, IconPlus, IconTrash } from "@tabler/icons-react";
import { ColorNameToggles, DateField, FileTypeChips, TextListInput, TriState } from "./filter-inputs";
import type { SectionProps } from "./sections-basic";
import { CustomFieldsEditor } from "./sections-fields";

type SetGroup = (path: (string | number)[], value: unknown) => void;

function GroupEditor({
  index,
  group,
  set,
  onRemove,
  tagNames,
  workspaceId,
}: {
  index: number;
  group: OrGroup;
  set: SetGroup;
  onRemove: () => void;
  tagNames: string[];
  workspaceId: string;
}) {
  const [more, { toggle }] = useDisclosure(false);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="or-group">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text size="sm" fw={600}>
            Group {index + 1}
          </Text>
          <ActionIcon variant="subtle" color="red" aria-label={`Remove group ${index + 1}`} onClick={onRemove}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        <FileTypeChips
          label="Type is any of"
          value={group.file_type?.includes}
          onChange={(v) => set(["file_type", "includes"], v)}
        />
        <TextListInput
          label="Has any of these tags"
          value={group.tags?.any_of}
          onChange={(v) => set(["tags", "any_of"], v)}
          data={tagNames}
        />
        <TextListInput
          label="Has all of these tags"
          value={group.tags?.all_of}
          onChange={(v) => set(["tags", "all_of"], v)}
          data={tagNames}
        />
        <TextListInput
          label="Has none of these tags"
          value={group.tags?.none_of}
          onChange={(v) => set(["tags", "none_of"], v)}
          data={tagNames}
        />
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={toggle}
          rightSection={<IconChevronDown size={14} style={{ transform: more ? "rotate(180deg)" : undefined }} />}
          style={{ alignSelf: "flex-start" }}
          aria-expanded={more}
        >
          {more ? "Fewer conditions" : "More conditions"}
        </Button>
        <Collapse expanded={more}>
          <Stack gap="xs">
            <TextInput
              label="Text"
              value={group.search ?? ""}
              onChange={(e) => set(["search"], e.currentTarget.value || undefined)}
            />
            <TriState
              label="Favourites"
              value={group.favorite}
              onChange={(v) => set(["favorite"], v)}
              yes="Favourites"
              no="Not favourites"
            />
            <TextListInput
              label="AI label is any of"
              value={group.ai_tags?.includes}
              onChange={(v) => set(["ai_tags", "includes"], v)}
            />
            <Group gap="xs" grow>
              <DateField
                label="Uploaded from"
                value={group.date_uploaded_from}
                onChange={(v) => set(["date_uploaded_from"], v)}
              />
              <DateField
                label="Uploaded until"
                value={group.date_uploaded_to}
                onChange={(v) => set(["date_uploaded_to"], v)}
              />
            </Group>
            <Group gap="xs" grow>
              <DateField
                label="Taken from"
                value={group.date_taken_from}
                onChange={(v) => set(["date_taken_from"], v)}
              />
              <DateField label="Taken until" value={group.date_taken_to} onChange={(v) => set(["date_taken_to"], v)} />
            </Group>
            <ColorNameToggles
              value={group.colors?.simplified_colors?.includes}
              onChange={(v) => set(["colors", "simplified_colors", "includes"], v)}
            />
            <ColorInput
              label="Close to this colour"
              format="hex"
              withEyeDropper={false}
              value={group.colors?.color_search ?? ""}
              onChange={(v) => set(["colors", "color_search"], v || undefined)}
              popoverProps={{ withinPortal: true }}
            />
            <CustomFieldsEditor
              workspaceId={workspaceId}
              value={group.custom_fields}
              onChange={(v) => set(["custom_fields"], v)}
            />
          </Stack>
        </Collapse>
      </Stack>
    </Paper>
  );
}

/**
 * or_groups: an asset matches when it matches every condition of at least one group; that is ANDed
 * with the rest of the filters (contract semantics). Empty groups are dropped when applied.
 */
export function OrGroupsSection({
  draft,
  set,
  tagNames,
  workspaceId,
}: SectionProps & { tagNames: string[]; workspaceId: string }) {
  const groups = (draft.or_groups ?? []) as OrGroup[];
  return (
    <Stack gap="sm">
      <Text size="xs" c="dimmed">
        An asset matches when it meets every condition of at least one group, as well as the other filters.
      </Text>
      {groups.map((group, i) => (
        <GroupEditor
          // biome-ignore lint/suspicious/noArrayIndexKey: groups have no identity but their position
          key={i}
          index={i}
          group={group}
          tagNames={tagNames}
          workspaceId={workspaceId}
          set={(path, value) => set(["or_groups", i, ...path], value)}
          onRemove={() =>
            set(
              ["or_groups"],
              groups.filter((_, j) => j !== i),
            )
          }
        />
      ))}
      <Button
        variant="light"
        leftSection={<IconPlus size={16} />}
        onClick={() => set(["or_groups", groups.length], {})}
        style={{ alignSelf: "flex-start" }}
      >
        Add a group
      </Button>
    </Stack>
  );
}

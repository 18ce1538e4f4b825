import { ASSET_MESSAGES, type TagMode } from "@hangar/contract";
import { Alert, Badge, Button, Group, Modal, SegmentedControl, Stack, Text, Textarea } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useSetTags } from "../api";
import { formatTags, parseTagInput } from "../tags";

/**
 * Edit tags, for one asset or many (spec 01 §5): comma-separated, trimmed, empties dropped,
 * duplicates ignored. For one asset the list replaces its tags. For many (issue 35) the dialog asks
 * how: "Add tags" (the default: each keeps its tags and gains these) or "Replace tags" (the list,
 * starting from the tags they share, becomes each one's). With none: "No assets selected".
 */
export function TagsDialog({
  workspaceId,
  assetIds,
  initialTags,
  opened,
  onClose,
  onDone,
}: {
  workspaceId: string;
  assetIds: string[];
  /** What the input starts with: the asset's tags (one), or what they all share (many), when known. */
  initialTags: readonly string[] | null;
  opened: boolean;
  onClose: () => void;
  onDone?: () => void;
}) {
  const setTags = useSetTags(workspaceId);
  const none = assetIds.length === 0;
  const many = assetIds.length > 1;
  const [mode, setMode] = useState<TagMode>("add");
  const [text, setText] = useState("");
  const initial = initialTags ? formatTags(initialTags) : "";
  // Adding starts empty; replacing starts from the tags they have (all of them share).
  const startText = (m: TagMode) => (many && m === "add" ? "" : initial);
  useEffect(() => {
    if (opened) {
      setMode("add");
      setText(many ? "" : initial);
    }
  }, [opened, initial, many]);
  const switchMode = (next: TagMode) => {
    // What the user typed stays; the untouched starting text follows the mode.
    setText((t) => (t === startText(mode) ? startText(next) : t));
    setMode(next);
  };

  const tags = useMemo(() => parseTagInput(text), [text]);
  const adding = many && mode === "add";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (none) return;
    setTags.mutate(
      { ids: assetIds, tags, mode: adding ? "add" : "replace" },
      {
        onSuccess: () => {
          onClose();
          onDone?.();
        },
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={many ? `Edit tags of ${assetIds.length} assets` : "Edit tags"}
      centered
      size={440}
    >
      <form onSubmit={submit} noValidate data-testid="tags-dialog">
        <Stack gap="md">
          {none ? (
            <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} p="sm" role="alert">
              {ASSET_MESSAGES.noAssetsSelected}
            </Alert>
          ) : (
            <>
              {many && (
                <SegmentedControl
                  fullWidth
                  value={mode}
                  onChange={(v) => switchMode(v as TagMode)}
                  data={[
                    { value: "add", label: "Add tags" },
                    { value: "replace", label: "Replace tags" },
                  ]}
                  aria-label="How to tag"
                  data-testid="tags-mode"
                />
              )}
              <Textarea
                label="Tags"
                description="Separate tags with commas"
                placeholder="summer, beach, campaign"
                autosize
                minRows={2}
                maxRows={6}
                value={text}
                onChange={(event) => setText(event.currentTarget.value)}
                onKeyDown={(event) => {
                  // Enter saves (a tag never holds a line break); Shift+Enter is not needed either.
                  if (event.key === "Enter" && !event.nativeEvent.isComposing) {
                    event.preventDefault();
                    event.currentTarget.form?.requestSubmit();
                  }
                }}
                data-autofocus
              />
              <Group gap={6} mih={22} aria-label="Tags to save" data-testid="tags-preview">
                {tags.length === 0
                  ? !adding && (
                      <Text size="xs" c="dimmed">
                        No tags: saving clears them.
                      </Text>
                    )
                  : tags.map((t) => (
                      <Badge key={t.toLowerCase()} variant="light" radius="sm" tt="none">
                        {t}
                      </Badge>
                    ))}
              </Group>
              {many && (
                <Text size="xs" c="dimmed" data-testid="tags-mode-hint">
                  {adding
                    ? `These tags are added to the ${assetIds.length} selected assets; the tags they have stay.`
                    : `These tags replace the tags of the ${assetIds.length} selected assets.`}
                </Text>
              )}
            </>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={none || (adding && tags.length === 0)} loading={setTags.isPending}>
              Save tags
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

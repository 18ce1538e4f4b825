import { ASSET_MESSAGES } from "@hangar/contract";
import { Alert, Badge, Button, Group, Modal, Stack, Text, Textarea } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useSetTags } from "../api";
import { formatTags, parseTagInput } from "../tags";

/**
 * Edit tags, for one asset or many (spec 01 §5): comma-separated, trimmed, empties dropped,
 * duplicates ignored. The list replaces the tags of every asset given. With none: "No assets selected".
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
  const [text, setText] = useState("");
  const initial = initialTags ? formatTags(initialTags) : "";
  useEffect(() => {
    if (opened) setText(initial);
  }, [opened, initial]);

  const tags = useMemo(() => parseTagInput(text), [text]);
  const none = assetIds.length === 0;
  const many = assetIds.length > 1;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (none) return;
    setTags.mutate(
      { ids: assetIds, tags },
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
                {tags.length === 0 ? (
                  <Text size="xs" c="dimmed">
                    No tags: saving clears them.
                  </Text>
                ) : (
                  tags.map((t) => (
                    <Badge key={t.toLowerCase()} variant="light" radius="sm" tt="none">
                      {t}
                    </Badge>
                  ))
                )}
              </Group>
              {many && (
                <Text size="xs" c="dimmed">
                  These tags replace the tags of the {assetIds.length} selected assets.
                </Text>
              )}
            </>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={none} loading={setTags.isPending}>
              Save tags
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import { SHARE_MESSAGES, shareSummary } from "@hangar/contract";
import { ActionIcon, Badge, Button, Group, Loader, Modal, ScrollArea, Stack, Text, Tooltip } from "@mantine/core";
import { IconAdjustments, IconCopy } from "@tabler/icons-react";
import { useQueries } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { copyLink, publicLink } from "../../entities/public-link";
import { errorMessage } from "../../lib/api-client";
import { notifyError } from "../../lib/notify";
import { fetchShareLink, type ShareTarget, shareKeys } from "./api";
import { ShareDialog } from "./share-dialog";

/**
 * Sharing many items at once (spec 01 §2 "for one item and for many"): each asset or board keeps its
 * own link (one per content), so the dialog lists them with their state, a copy button each, "Copy
 * all links", and the single dialog for any one's settings.
 */
export function ShareManyDialog(props: { opened: boolean; onClose(): void; targets: ShareTarget[]; names: string[] }) {
  const { targets, opened, onClose } = props;
  const links = useQueries({
    queries: targets.map((t) => ({
      queryKey: shareKeys.link(t),
      enabled: opened,
      retry: false,
      queryFn: () => fetchShareLink(t),
    })),
  });
  const [editing, setEditing] = useState<number | null>(null);
  const failed = links.find((l) => l.isError);
  useEffect(() => {
    if (!opened || !failed) return;
    const prefix = targets[0]?.type === "board" ? SHARE_MESSAGES.openBoardFailed : SHARE_MESSAGES.openFailed;
    notifyError(`${prefix}${errorMessage(failed.error, SHARE_MESSAGES.getFailed)}`);
    onClose();
  }, [opened, failed, targets, onClose]);
  const ready = links.every((l) => l.data);
  const kind = targets[0]?.type === "board" ? "Boards" : "Assets";

  return (
    <>
      <Modal
        opened={opened && !failed && editing === null}
        onClose={onClose}
        title={`Share ${targets.length} ${kind}`}
        size={520}
        styles={{ content: { minWidth: "min(450px, 100vw)" } }}
      >
        <Stack gap="sm" data-testid="share-many-dialog">
          <ScrollArea.Autosize mah={360}>
            <Stack gap={6}>
              {targets.map((t, i) => {
                const link = links[i]?.data;
                return (
                  <Group key={t.objectId} justify="space-between" wrap="nowrap" data-testid="share-many-row">
                    <Text size="sm" truncate="end" style={{ flex: 1 }}>
                      {props.names[i]}
                    </Text>
                    {link ? (
                      <Group gap={6} wrap="nowrap">
                        <Badge variant="light" size="sm" color={link.is_active ? "blue" : "gray"}>
                          {shareSummary(link)}
                        </Badge>
                        <Tooltip label="Copy link">
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Copy link of ${props.names[i]}`}
                            onClick={() => void copyLink(publicLink(link))}
                          >
                            <IconCopy size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Link settings">
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Settings of ${props.names[i]}`}
                            onClick={() => setEditing(i)}
                          >
                            <IconAdjustments size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    ) : (
                      <Loader size="xs" />
                    )}
                  </Group>
                );
              })}
            </Stack>
          </ScrollArea.Autosize>
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button
              disabled={!ready}
              onClick={() =>
                void copyLink(targets.map((_t, i) => `${props.names[i]}: ${publicLink(links[i]!.data!)}`).join("\n"))
              }
            >
              Copy all links
            </Button>
          </Group>
        </Stack>
      </Modal>
      {editing !== null && targets[editing] && (
        <ShareDialog
          opened
          onClose={() => setEditing(null)}
          target={targets[editing]!}
          itemName={props.names[editing] ?? ""}
        />
      )}
    </>
  );
}

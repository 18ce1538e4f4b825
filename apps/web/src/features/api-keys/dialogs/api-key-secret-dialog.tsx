import type { ApiKeyCreated } from "@hangar/contract";
import { Alert, Button, Code, Group, Modal, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconCheck, IconCopy } from "@tabler/icons-react";
import { useState } from "react";
import { copyText } from "../../../lib/clipboard";
import { curlExample } from "../scopes";

/**
 * A new key's secret, the one time it is shown: a warning that it will not be shown again, the
 * secret with Copy, and a curl call using it. Only "Done" closes it (not a click beside it), so the
 * secret is not lost by accident.
 */
export function ApiKeySecretDialog({
  created,
  workspaceId,
  onClose,
}: {
  created: ApiKeyCreated | null;
  workspaceId: string;
  onClose(): void;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const secret = created?.secret ?? "";
  const curl = curlExample(secret, window.location.origin, workspaceId);
  const close = () => {
    setCopied(null);
    onClose();
  };
  // The visible text is the accessible name ("Copy key", then "Copied"), as axe's label rule wants.
  const copyButton = (text: string, what: string, label: string) => (
    <Button
      size="xs"
      leftSection={copied === what ? <IconCheck size={14} /> : <IconCopy size={14} />}
      onClick={async () => {
        if (await copyText(text, what)) setCopied(what);
      }}
    >
      {copied === what ? "Copied" : label}
    </Button>
  );

  return (
    <Modal
      opened={created !== null}
      onClose={close}
      title={`API key “${created?.name ?? ""}” created`}
      centered
      size="lg"
      closeOnClickOutside={false}
    >
      <Stack gap="md" data-testid="api-key-secret-dialog">
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Copy it now">
          This is the only time the key is shown. Hangar keeps only a fingerprint of it: once you close this dialog
          nobody can see it again, and a lost key can only be revoked and replaced.
        </Alert>
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              Secret
            </Text>
            {copyButton(secret, "API key", "Copy key")}
          </Group>
          <Code block data-testid="api-key-secret" style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
            {secret}
          </Code>
        </Stack>
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              Try it: list the workspace's assets
            </Text>
            {copyButton(curl, "Command", "Copy command")}
          </Group>
          <Code block data-testid="api-key-curl" style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
            {curl}
          </Code>
          <Text size="xs" c="dimmed">
            Send the key as <Code>Authorization: Bearer …</Code> on every call; no cookie or CSRF token is needed.
          </Text>
        </Stack>
        <Group justify="flex-end">
          <Button onClick={close}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

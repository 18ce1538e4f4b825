import { Alert, Button, Code, Group, Modal, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconCheck, IconCopy } from "@tabler/icons-react";
import { useState } from "react";
import { copyText } from "../../../lib/clipboard";
import { curlExample } from "../scopes";

/** A new key's secret, the one time it is shown, with a curl call listing its workspace's assets. */
export function ApiKeySecretDialog({
  created,
  workspaceId,
  onClose,
}: {
  created: { name: string; secret: string } | null;
  workspaceId: string;
  onClose(): void;
}) {
  return (
    <SecretDialog
      created={created}
      onClose={onClose}
      noun="API key"
      testId="api-key"
      example={{
        label: "Try it: list the workspace's assets",
        command: curlExample(created?.secret ?? "", window.location.origin, workspaceId),
      }}
    />
  );
}

/**
 * A new bearer secret (an API key, a personal access token), the one time it is shown: a warning
 * that it will not be shown again, the secret with Copy, and a curl call using it. Only "Done" closes
 * it (not a click beside it), so the secret is not lost by accident.
 */
export function SecretDialog({
  created,
  onClose,
  noun,
  testId,
  example,
}: {
  created: { name: string; secret: string } | null;
  onClose(): void;
  /** "API key" or "Personal access token". */
  noun: string;
  testId: string;
  example: { label: string; command: string };
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const secret = created?.secret ?? "";
  const curl = example.command;
  const short = noun === "API key" ? "key" : "token";
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
      title={`${noun} “${created?.name ?? ""}” created`}
      centered
      size="lg"
      closeOnClickOutside={false}
    >
      <Stack gap="md" data-testid={`${testId}-secret-dialog`}>
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Copy it now">
          This is the only time the {short} is shown. Hangar keeps only a fingerprint of it: once you close this dialog
          nobody can see it again, and a lost {short} can only be revoked and replaced.
        </Alert>
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              Secret
            </Text>
            {copyButton(secret, noun, `Copy ${short}`)}
          </Group>
          <Code block data-testid={`${testId}-secret`} style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
            {secret}
          </Code>
        </Stack>
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              {example.label}
            </Text>
            {copyButton(curl, "Command", "Copy command")}
          </Group>
          <Code block data-testid={`${testId}-curl`} style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
            {curl}
          </Code>
          <Text size="xs" c="dimmed">
            Send the {short} as <Code>Authorization: Bearer …</Code> on every call; no cookie or CSRF token is needed.
          </Text>
        </Stack>
        <Group justify="flex-end">
          <Button onClick={close}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

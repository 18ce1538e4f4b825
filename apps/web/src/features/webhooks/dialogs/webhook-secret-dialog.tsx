import { WEBHOOK_HEADERS, type WebhookWithSecret } from "@hangar/contract";
import { Alert, Button, Code, Group, Modal, ScrollArea, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconCheck, IconCopy } from "@tabler/icons-react";
import { useState } from "react";
import { copyText } from "../../../lib/clipboard";
import { VERIFY_SNIPPET } from "../events";

/**
 * An endpoint's signing secret, the one time it is shown (added, or its secret rolled): a warning,
 * the secret with Copy, and how a receiver checks a delivery's signature with it. Only "Done" closes
 * it, so the secret is not lost by a click beside it.
 */
export function WebhookSecretDialog({
  hook,
  rolled = false,
  onClose,
}: {
  hook: WebhookWithSecret | null;
  rolled?: boolean;
  onClose(): void;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const close = () => {
    setCopied(null);
    onClose();
  };
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
      opened={hook !== null}
      onClose={close}
      title={rolled ? "New signing secret" : "Webhook endpoint added"}
      centered
      size="xl"
      closeOnClickOutside={false}
    >
      <Stack gap="md" data-testid="webhook-secret-dialog">
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Copy the secret now">
          This is the only time the signing secret is shown. Your receiver needs it to check that each delivery comes
          from Hangar; a lost secret can only be rolled (replaced).
          {rolled && " The old secret stopped signing: update the receiver now."}
        </Alert>
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              Signing secret
            </Text>
            {copyButton(hook?.secret ?? "", "Secret", "Copy secret")}
          </Group>
          <Code block data-testid="webhook-secret" style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
            {hook?.secret}
          </Code>
        </Stack>
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              Verify each delivery (Node)
            </Text>
            {copyButton(VERIFY_SNIPPET, "Code", "Copy code")}
          </Group>
          <ScrollArea.Autosize mah={260} type="auto">
            <Code block data-testid="webhook-verify-snippet" style={{ whiteSpace: "pre" }}>
              {VERIFY_SNIPPET}
            </Code>
          </ScrollArea.Autosize>
          <Text size="xs" c="dimmed">
            Call it with the <Code>{WEBHOOK_HEADERS.signature}</Code> header and the raw request body, before parsing
            the JSON, and answer any 2xx within 10 seconds. Every event's body is described in{" "}
            <Code>docs/webhooks.md</Code> of Hangar's source.
          </Text>
        </Stack>
        <Group justify="flex-end">
          <Button onClick={close}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

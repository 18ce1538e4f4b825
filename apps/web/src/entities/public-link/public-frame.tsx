import { SHARE_MESSAGES } from "@hangar/contract";
import { Alert, Box, Button, Center, Group, Paper, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { IconLinkOff, IconLock } from "@tabler/icons-react";
import { type FormEvent, useEffect, useState } from "react";
import { errorMessage, isApiError } from "../../lib/api-client";
import { ProductMark } from "../../ui/product-mark";

/** The public pages' frame (shared content, upload links): the product mark, then the content centred. */
export function CenteredPage({ children }: { children: React.ReactNode }) {
  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)">
      <Group px="lg" h={56}>
        <ProductMark size="sm" />
      </Group>
      <Center component="main" mih="calc(100dvh - 56px)" p="md">
        {children}
      </Center>
    </Box>
  );
}

/** A link's password prompt (spec 02 §2): the server's answer to a wrong one shows under the field. */
export function PasswordPrompt(props: {
  error: unknown;
  busy: boolean;
  onSubmit(password: string): void;
  hint?: string;
}) {
  const [value, setValue] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value) props.onSubmit(value);
  };
  const message = props.error ? errorMessage(props.error, SHARE_MESSAGES.passwordRequired) : null;
  return (
    <CenteredPage>
      <Paper withBorder shadow="sm" radius="md" p="xl" w={380} maw="100%">
        <form onSubmit={submit}>
          <Stack gap="md" data-testid="share-password-prompt">
            <Group gap="xs">
              <IconLock size={20} />
              <Title order={1} size="h3">
                {SHARE_MESSAGES.passwordRequired}
              </Title>
            </Group>
            <Text size="sm" c="dimmed">
              {props.hint ?? "This shared content is protected. Enter the password you were given."}
            </Text>
            <PasswordInput
              label="Password"
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
              error={message && message !== SHARE_MESSAGES.passwordRequired ? message : null}
              autoComplete="current-password"
              data-autofocus
              autoFocus
              maxLength={200}
            />
            <Button type="submit" loading={props.busy} disabled={!value}>
              Open
            </Button>
          </Stack>
        </form>
      </Paper>
    </CenteredPage>
  );
}

/** Spec 02 §8 Shared content access: 403 and 401 have their own texts, anything else the server's or the fallback. */
export function sharedErrorText(error: unknown): string {
  if (isApiError(error) && error.status === 403) return SHARE_MESSAGES.expired;
  if (isApiError(error) && error.status === 401) return SHARE_MESSAGES.passwordRequired;
  return errorMessage(error, SHARE_MESSAGES.accessFailed);
}

/** A link that cannot be opened: over (403), unknown (404), or another failure with its message. */
export function SharedError({ error }: { error: unknown }) {
  const expired = isApiError(error) && error.status === 403;
  return (
    <CenteredPage>
      <Stack align="center" gap="sm" maw={420} ta="center" data-testid="shared-error">
        <IconLinkOff size={40} color="var(--mantine-color-gray-6)" />
        <Title order={1} size="h3">
          {sharedErrorText(error)}
        </Title>
        <Text size="sm" c="dimmed">
          {expired
            ? "Ask the person who shared it with you for a new link."
            : "Check the address, or ask the person who shared it with you."}
        </Text>
        {!expired && !(isApiError(error) && error.status === 404) && (
          <Alert variant="light" color="red">
            {errorMessage(error, SHARE_MESSAGES.accessFailed)}
          </Alert>
        )}
      </Stack>
    </CenteredPage>
  );
}

/** Public pages are nobody's to index: the page says so to crawlers that run scripts too (the server sends X-Robots-Tag). */
export function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement("meta");
    meta.name = "robots";
    meta.content = "noindex";
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

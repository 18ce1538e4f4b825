import { Center, Loader, Stack, Text } from "@mantine/core";

/** A loading state that says what is loading (screen readers hear the label). */
export function CenteredLoader({ label = "Loading…", fullPage = false }: { label?: string; fullPage?: boolean }) {
  return (
    <Center mih={fullPage ? "100dvh" : 240} role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader size="md" />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

import { Box, Container, Group, Stack } from "@mantine/core";
import { NotFoundState } from "./not-found-state";
import { ProductMark } from "./product-mark";

/** Any path no route matches. */
export function NotFoundPage() {
  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)" py={64} px="md">
      <Container size={480} component="main">
        <Stack gap="xl">
          <Group justify="center">
            <ProductMark size="lg" />
          </Group>
          <NotFoundState />
        </Stack>
      </Container>
    </Box>
  );
}

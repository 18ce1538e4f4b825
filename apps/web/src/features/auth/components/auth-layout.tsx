import { Box, Container, Group, Stack, Text } from "@mantine/core";
import { Outlet, useMatch } from "react-router-dom";
import { ProductMark } from "../../../ui/product-mark";

/** Public layout: the product mark over one centred card on a quiet background. */
export function AuthLayout() {
  const isLanding = useMatch("/") !== null;
  return (
    <Box
      mih="100dvh"
      py={{ base: "xl", sm: 64 }}
      px="md"
      style={{
        background:
          "radial-gradient(1200px 600px at 50% -10%, var(--mantine-color-brand-0), transparent 70%), var(--mantine-color-gray-0)",
      }}
    >
      <Container size={isLanding ? 560 : 440} p={0}>
        <Stack gap="xl">
          <Group justify="center">
            <ProductMark size="lg" />
          </Group>
          <main>
            <Outlet />
          </main>
          <Text size="xs" c="dimmed" ta="center">
            Hangar · self-hosted asset management
          </Text>
        </Stack>
      </Container>
    </Box>
  );
}

import { Box, Container, Group } from "@mantine/core";
import { Outlet } from "react-router-dom";
import { ProductMark } from "./product-mark";

/** A bare page: the mark in the corner and the content centred (create-workspace). */
export function BlankLayout() {
  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)">
      <Group px="lg" h={64}>
        <ProductMark to="/w" size="sm" />
      </Group>
      <Container size={480} pt={{ base: "md", sm: 48 }} pb="xl" component="main">
        <Outlet />
      </Container>
    </Box>
  );
}

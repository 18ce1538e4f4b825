import { Box, Button, Container, Stack, Text, Title } from "@mantine/core";
import { isRouteErrorResponse, useRouteError } from "react-router-dom";
import { NotFoundPage } from "./not-found-page";

/** Last resort for a render error anywhere in the route tree. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return (
    <Box mih="100dvh" py={96} px="md">
      <Container size={480} component="main">
        <Stack gap="md" align="center" ta="center" role="alert">
          <Title order={1} size="h3">
            Something went wrong
          </Title>
          <Text c="dimmed" size="sm">
            The page failed to load. Reloading usually helps; if it keeps happening, tell your administrator.
          </Text>
          <Button onClick={() => window.location.reload()}>Reload page</Button>
        </Stack>
      </Container>
    </Box>
  );
}

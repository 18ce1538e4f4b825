import { Button, Group, Loader, Paper, Stack, Text, Title } from "@mantine/core";
import { IconArrowRight } from "@tabler/icons-react";
import { Link } from "react-router-dom";
import { useMe } from "../api";

export function LandingPage() {
  const me = useMe();
  return (
    <Paper withBorder shadow="sm" radius="lg" p={{ base: "lg", sm: 40 }} data-testid="landing">
      <Stack gap="lg">
        <Title order={1} size="h2" lh={1.2}>
          Every asset your team makes, in one calm place.
        </Title>
        <Text c="dimmed">
          Hangar keeps your images, video and documents in shared workspaces, organised in nested boards. Upload whole
          folders, find anything by tag, colour or camera, review with comments pinned on the frame, and share a link
          with clients — on your own servers.
        </Text>
        {me.isPending ? (
          <Loader size="sm" aria-label="Checking your session" />
        ) : me.data ? (
          <Group>
            <Button component={Link} to="/w" rightSection={<IconArrowRight size={16} />}>
              Go to your workspaces
            </Button>
            <Text size="sm" c="dimmed">
              Signed in as {me.data.email}
            </Text>
          </Group>
        ) : (
          <Group>
            <Button component={Link} to="/a/login">
              Sign in
            </Button>
            <Button component={Link} to="/a/register" variant="default">
              Create account
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

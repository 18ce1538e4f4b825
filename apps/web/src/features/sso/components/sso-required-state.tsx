import { Button, Paper, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconShieldLock } from "@tabler/icons-react";
import { Link, useLocation } from "react-router-dom";
import { useSignInOptions } from "../api";
import { SsoButton } from "./sso-button";

/**
 * A workspace that requires single sign-on, opened with a session that did not come from it: the
 * server's reason, and the way in (signing in through the provider, back to this very page).
 */
export function SsoRequiredState({ message }: { message: string }) {
  const location = useLocation();
  const options = useSignInOptions();
  const text = options.data?.sso.button_text ?? "Sign in with single sign-on";
  return (
    <Paper withBorder radius="lg" p="xl" maw={520} mx="auto" mt="xl" data-testid="sso-required">
      <Stack gap="md" align="center" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconShieldLock size={26} aria-hidden />
        </ThemeIcon>
        <Title order={2} size="h3">
          Single sign-on required
        </Title>
        <Text size="sm" c="dimmed" role="alert">
          {message}
        </Text>
        <SsoButton text={text} next={`${location.pathname}${location.search}`} />
        <Button component={Link} to="/w" variant="subtle" size="sm">
          Go to your workspaces
        </Button>
      </Stack>
    </Paper>
  );
}

import { initials } from "@hangar/contract";
import { Stack, Text, UnstyledButton } from "@mantine/core";
import { IconLogout, IconSettings } from "@tabler/icons-react";
import { useNavigate } from "react-router-dom";
import { useCurrentUser, useLogout } from "../../features/auth";
import { Menu } from "../../lib/lazy-menu";
import { displayName, UserAvatar } from "../../ui/user-avatar";

export function UserMenu() {
  const user = useCurrentUser();
  const logout = useLogout();
  const navigate = useNavigate();

  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        {/* The initials shown are in its name too, for voice control (WCAG 2.5.3). */}
        <UnstyledButton
          aria-label={`Account menu, ${initials(user)}`}
          data-testid="user-menu"
          style={{ borderRadius: 999 }}
        >
          <UserAvatar person={user} size={34} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Stack gap={0} px="sm" py={6}>
          <Text size="sm" fw={600} truncate="end">
            {displayName(user)}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {user.email}
          </Text>
        </Stack>
        <Menu.Divider />
        <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => navigate("/a/settings")}>
          Account settings
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => logout.mutate()} disabled={logout.isPending}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

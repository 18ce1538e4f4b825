import { Badge, Button, Group, Loader, Text } from "@mantine/core";
import { IconCheck, IconChevronDown, IconPlus, IconRefresh } from "@tabler/icons-react";
import { useNavigate } from "react-router-dom";
import { useSelectWorkspace, useWorkspaces } from "../../entities/workspace";
import { Menu } from "../../lib/lazy-menu";
import { ROLE_LABELS } from "../../ui/role-badge";

/** Header menu: every workspace of the user, the current one ticked, and "New workspace". */
export function WorkspaceSwitcher({ currentId }: { currentId: string | null }) {
  const workspaces = useWorkspaces();
  const selectWorkspace = useSelectWorkspace();
  const navigate = useNavigate();
  const current = workspaces.data?.find((w) => w.id === currentId);

  return (
    <Menu position="bottom-start" width={280} shadow="md" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          c="var(--mantine-color-text)"
          rightSection={<IconChevronDown size={16} aria-hidden />}
          data-testid="workspace-switcher"
          // A phone's header is narrow: the name gets the room the button's padding would take.
          maw={{ base: "100%", sm: 280 }}
          miw={0}
          px={{ base: 6, sm: "md" }}
        >
          <Text fw={600} size="sm" truncate="end">
            {current?.name ?? "Choose a workspace"}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="workspace-switcher-menu">
        <Menu.Label>Workspaces</Menu.Label>
        {workspaces.isPending && (
          <Menu.Item disabled leftSection={<Loader size={14} />}>
            Loading workspaces…
          </Menu.Item>
        )}
        {workspaces.isError && (
          <Menu.Item
            color="red"
            leftSection={<IconRefresh size={16} />}
            onClick={() => workspaces.refetch()}
            closeMenuOnClick={false}
          >
            Failed to fetch workspaces — retry
          </Menu.Item>
        )}
        {workspaces.data?.map((workspace) => (
          <Menu.Item
            key={workspace.id}
            onClick={() => selectWorkspace(workspace.id)}
            leftSection={
              workspace.id === currentId ? (
                <IconCheck size={16} aria-label="Current workspace" />
              ) : (
                <span style={{ width: 16 }} />
              )
            }
            rightSection={
              <Badge size="xs" variant="light" color="gray">
                {ROLE_LABELS[workspace.user_role]}
              </Badge>
            }
          >
            <Group gap={6} wrap="nowrap">
              <Text size="sm" truncate="end" maw={160}>
                {workspace.name}
              </Text>
            </Group>
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item leftSection={<IconPlus size={16} />} onClick={() => navigate("/w/new")}>
          New workspace
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

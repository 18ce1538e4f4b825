import { Anchor, Badge, Button, Card, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import {
  type Icon,
  IconCloudUpload,
  IconFolder,
  IconFolderPlus,
  IconPhoto,
  IconSettings,
  IconTrash,
  IconUserPlus,
  IconUsers,
} from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { useBoardTree } from "../../../entities/board";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { EmptyPanel } from "../../../ui/empty-panel";
import { PageHeader } from "../../../ui/page-header";
import { RoleBadge } from "../../../ui/role-badge";
import { RecentAssets, useAssetCount } from "../../assets";
import { useCurrentUser } from "../../auth";

function QuickLink({ to, icon: LinkIcon, title, text }: { to: string; icon: Icon; title: string; text: string }) {
  return (
    <Card component={Link} to={to} withBorder radius="lg" padding="lg" className="hangar-hover-card">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
          <LinkIcon size={20} />
        </ThemeIcon>
        <Stack gap={2}>
          <Text fw={600}>{title}</Text>
          <Text size="sm" c="dimmed">
            {text}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

/** "Welcome" on a first visit to this workspace from this browser, "Welcome back" after. */
function useGreeting(workspaceId: string): string {
  const key = `hangar:visited:${workspaceId}`;
  const [returning] = useState(() => {
    try {
      return localStorage.getItem(key) !== null;
    } catch {
      return false;
    }
  });
  useEffect(() => {
    try {
      localStorage.setItem(key, "1");
    } catch {
      // No storage: every visit is a first one.
    }
  }, [key]);
  return returning ? "Welcome back" : "Welcome";
}

export function WorkspaceHomePage() {
  const workspace = useCurrentWorkspace();
  const user = useCurrentUser();
  const base = `/w/${workspace.id}`;
  const members = workspace.member_count === 1 ? "1 member" : `${workspace.member_count} members`;
  const greeting = useGreeting(workspace.id);
  const assetCount = useAssetCount(workspace.id);
  const boards = useBoardTree(workspace.id).data ?? [];
  const canUpload = workspace.abilities?.upload ?? workspace.user_role !== "COMMENTER";

  const firstSteps = (
    <EmptyPanel
      testId="assets-empty"
      icon={<IconCloudUpload size={28} />}
      title="No assets yet"
      description={
        <List size="sm" spacing={4} ta="left" data-testid="first-steps">
          {canUpload && (
            <List.Item icon={<IconCloudUpload size={14} />}>
              Upload files or whole folders (Upload, top right)
            </List.Item>
          )}
          {canUpload && (
            <List.Item icon={<IconFolderPlus size={14} />}>Create boards to organise them (Boards, left)</List.Item>
          )}
          {workspace.abilities?.invite && (
            <List.Item icon={<IconUserPlus size={14} />}>
              {/* The theme's link (Anchor), not the browser's default blue. */}
              <Anchor component={Link} to={`${base}/members`} size="sm" fw={600} data-testid="invite-team-link">
                Invite your team
              </Anchor>
            </List.Item>
          )}
        </List>
      }
      action={
        <Button component={Link} to={`${base}/b/all`} variant="light">
          Open all assets
        </Button>
      }
    />
  );

  return (
    <Stack gap="lg" data-testid="workspace-home">
      <PageHeader
        title={<span data-testid="workspace-name">{workspace.name}</span>}
        documentTitle={workspace.name}
        description={
          <Group gap="xs" component="span">
            <Text span size="sm" c="dimmed" data-testid="home-greeting">
              {greeting}
              {user.first_name ? `, ${user.first_name}` : ""} ·
            </Text>
            <RoleBadge role={workspace.user_role} />
            <Text span size="sm" c="dimmed">
              · {members}
            </Text>
          </Group>
        }
      />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <QuickLink
          to={`${base}/b/all`}
          icon={IconPhoto}
          title="All assets"
          text={
            assetCount === null ? "Every file in this workspace" : `${assetCount} asset${assetCount === 1 ? "" : "s"}`
          }
        />
        <QuickLink to={`${base}/members`} icon={IconUsers} title="Members" text={`${members} · invite people`} />
        <QuickLink to={`${base}/settings`} icon={IconSettings} title="Settings" text="Name, plan and custom fields" />
        <QuickLink
          to={`${base}/recently-deleted`}
          icon={IconTrash}
          title="Recently deleted"
          text="Restore within 30 days"
        />
      </SimpleGrid>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Recent uploads
        </Title>
        <RecentAssets workspaceId={workspace.id} empty={firstSteps} />
      </Stack>
      {boards.length > 0 && (
        <Stack gap="sm">
          <Title order={2} size="h4">
            Boards
          </Title>
          <Group gap="sm" data-testid="home-boards">
            {boards.slice(0, 12).map((b) => (
              <Button
                key={b.id}
                component={Link}
                to={`${base}/b/${b.id}`}
                variant="default"
                leftSection={<IconFolder size={16} />}
                rightSection={
                  b.child_count > 0 ? (
                    <Badge size="xs" variant="light">
                      {b.child_count}
                    </Badge>
                  ) : null
                }
              >
                {b.name}
              </Button>
            ))}
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

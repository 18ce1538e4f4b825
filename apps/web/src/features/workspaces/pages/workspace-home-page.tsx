import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { type Icon, IconCloudUpload, IconPhoto, IconSettings, IconTrash, IconUsers } from "@tabler/icons-react";
import { Link } from "react-router-dom";
import { EmptyPanel } from "../../../ui/empty-panel";
import { PageHeader } from "../../../ui/page-header";
import { RoleBadge } from "../../../ui/role-badge";
import { useCurrentUser } from "../../auth";
import { useCurrentWorkspace } from "../workspace-context";

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

export function WorkspaceHomePage() {
  const workspace = useCurrentWorkspace();
  const user = useCurrentUser();
  const base = `/w/${workspace.id}`;
  const members = workspace.member_count === 1 ? "1 member" : `${workspace.member_count} members`;

  return (
    <Stack gap="lg" data-testid="workspace-home">
      <PageHeader
        title={<span data-testid="workspace-name">{workspace.name}</span>}
        description={
          <Group gap="xs" component="span">
            <Text span size="sm" c="dimmed">
              Welcome back{user.first_name ? `, ${user.first_name}` : ""} ·
            </Text>
            <RoleBadge role={workspace.user_role} />
            <Text span size="sm" c="dimmed">
              · {members}
            </Text>
          </Group>
        }
      />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <QuickLink to={`${base}/b/all`} icon={IconPhoto} title="All assets" text="Every file in this workspace" />
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
          Recent assets
        </Title>
        <EmptyPanel
          testId="assets-empty"
          icon={<IconCloudUpload size={28} />}
          title="No assets yet"
          description="Use Upload to add images, video, documents or whole folders; they will show up here."
          action={
            <Button component={Link} to={`${base}/b/all`} variant="light">
              Open all assets
            </Button>
          }
        />
      </Stack>
    </Stack>
  );
}

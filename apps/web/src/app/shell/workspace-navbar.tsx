import { Box, NavLink, Stack, Text } from "@mantine/core";
import {
  type Icon,
  IconChecklist,
  IconCopy,
  IconFaceId,
  IconHome,
  IconPhoto,
  IconSettings,
  IconTrash,
  IconUsers,
} from "@tabler/icons-react";
import { Link, useLocation } from "react-router-dom";
import { BoardsPanel } from "../../features/boards";
import { useFaceSettings } from "../../features/people";

interface NavItem {
  label: string;
  to: string;
  icon: Icon;
  /** Active only on this exact path (home), else on the path and below. */
  exact?: boolean;
}

function NavItems({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <Stack gap={2}>
      {items.map(({ label, to, icon: ItemIcon, exact }) => {
        const active = exact ? pathname === to || pathname === `${to}/` : pathname.startsWith(to);
        return (
          <NavLink
            key={to}
            component={Link}
            to={to}
            label={label}
            active={active}
            aria-current={active ? "page" : undefined}
            leftSection={<ItemIcon size={18} stroke={1.6} aria-hidden />}
            onClick={onNavigate}
            variant="light"
            style={{ borderRadius: "var(--mantine-radius-md)" }}
          />
        );
      })}
    </Stack>
  );
}

/** Left navbar of a workspace: main views, the boards panel slot, then administration. */
export function WorkspaceNavbar({ workspaceId, onNavigate }: { workspaceId: string | null; onNavigate?: () => void }) {
  if (!workspaceId) {
    return (
      <Text size="sm" c="dimmed" p="sm">
        Choose a workspace from the menu above to see its assets and boards.
      </Text>
    );
  }
  return <WorkspaceNav workspaceId={workspaceId} onNavigate={onNavigate} />;
}

function WorkspaceNav({ workspaceId, onNavigate }: { workspaceId: string; onNavigate?: () => void }) {
  const base = `/w/${workspaceId}`;
  // People (issue 32) only while face recognition is on in the workspace.
  const faces = useFaceSettings(workspaceId);
  return (
    <Stack gap="md" h="100%" component="nav" aria-label="Workspace">
      <NavItems
        onNavigate={onNavigate}
        items={[
          { label: "Home", to: base, icon: IconHome, exact: true },
          { label: "All assets", to: `${base}/b/all`, icon: IconPhoto },
          { label: "Reviews", to: `${base}/reviews`, icon: IconChecklist },
          ...(faces.data?.enabled ? [{ label: "People", to: `${base}/people`, icon: IconFaceId }] : []),
        ]}
      />
      {/* The tree virtualises and scrolls itself: the panel only needs the height left over. */}
      <Box flex={1} mih={0}>
        <BoardsPanel key={workspaceId} workspaceId={workspaceId} onNavigate={onNavigate} />
      </Box>
      <NavItems
        onNavigate={onNavigate}
        items={[
          { label: "Members", to: `${base}/members`, icon: IconUsers },
          { label: "Settings", to: `${base}/settings`, icon: IconSettings },
          { label: "Duplicates", to: `${base}/duplicates`, icon: IconCopy },
          { label: "Recently deleted", to: `${base}/recently-deleted`, icon: IconTrash },
        ]}
      />
    </Stack>
  );
}

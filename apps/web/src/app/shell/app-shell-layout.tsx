import { canEdit, type Workspace } from "@hangar/contract";
import { AppShell, Box, Burger, Container, Group, useMantineTheme } from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { Outlet, useMatch } from "react-router-dom";
import { useSelection, useWorkspaces } from "../../entities/workspace";
import { UploadHeaderControls } from "../../features/uploads";
import { ProductMark } from "../../ui/product-mark";
import { MAIN_CONTENT_ID, SkipLink } from "../../ui/skip-link";
import { UserMenu } from "./user-menu";
import { WorkspaceNavbar } from "./workspace-navbar";
import { WorkspaceSwitcher } from "./workspace-switcher";

/**
 * Inside /w/:id the navbar follows the URL, unless the list proves the workspace is not ours (a
 * not-found page); elsewhere (account settings) it keeps the last workspace, if still ours.
 */
function navbarWorkspaceId(routeId: string | null, lastId: string | null, list: Workspace[] | undefined) {
  if (routeId) return !list || list.some((w) => w.id === routeId) ? routeId : null;
  return list?.some((w) => w.id === lastId) ? lastId : null;
}

/** Authenticated layout: header (mark, workspace switcher, user menu), workspace navbar, page. */
export function AppShellLayout() {
  const [navOpen, nav] = useDisclosure(false);
  const routeWorkspaceId = useMatch("/w/:workspaceId/*")?.params.workspaceId ?? null;
  const lastWorkspaceId = useSelection((s) => s.workspaceId);
  const workspaces = useWorkspaces();

  const workspaceId = navbarWorkspaceId(routeWorkspaceId, lastWorkspaceId, workspaces.data);
  const routeRole = workspaces.data?.find((w) => w.id === routeWorkspaceId)?.user_role;
  // Below the navbar's breakpoint a closed navbar is off screen (AppShell's own query): it leaves
  // the Tab order and the accessibility tree too, instead of eight invisible stops.
  const sm = Number.parseFloat(useMantineTheme().breakpoints.sm);
  const phone = useMediaQuery(`(max-width: ${sm - 0.1}em)`) ?? false;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 248, breakpoint: "sm", collapsed: { mobile: !navOpen } }}
      // A phone keeps more of its width for the page.
      padding={{ base: "md", sm: "lg" }}
    >
      <SkipLink />
      <AppShell.Header>
        {/* On a phone the left side gives way (the workspace name truncates): the upload button and
            the account menu always fit on the screen. */}
        <Group h="100%" px={{ base: "xs", sm: "md" }} justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: 1 }}>
            <Burger opened={navOpen} onClick={nav.toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Box visibleFrom="sm">
              <ProductMark to="/w" size="sm" />
            </Box>
            <WorkspaceSwitcher currentId={workspaceId} />
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            <UploadHeaderControls workspaceId={routeWorkspaceId} canUpload={canEdit(routeRole)} />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" inert={phone && !navOpen}>
        <WorkspaceNavbar workspaceId={workspaceId} onNavigate={nav.close} />
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)" id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Container size="xl" p={0}>
          <Outlet />
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}

import { canEdit } from "@hangar/contract";
import { Anchor, Group, Loader, Stack, Switch, Text, Title } from "@mantine/core";
import { Link } from "react-router-dom";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { personName, useAssetFaces, useFaceSettings } from "../api";
import { FaceCrop } from "./face-crop";
import { showFacesStore, useShowFaces } from "./show-faces-store";
import { WhoIsThis } from "./who-is-this";

/**
 * The details tab's People (issue 32): "Show faces" draws the faces on the preview with their names;
 * below, each face with its person (a link to their page) or "Who is this?". Nothing when face
 * recognition is off in the workspace.
 */
export function FacesSection({ workspaceId, assetId }: { workspaceId: string; assetId: string }) {
  const workspace = useCurrentWorkspace();
  const editable = canEdit(workspace.user_role);
  const settings = useFaceSettings(workspaceId);
  const shown = useShowFaces();
  const faces = useAssetFaces(workspaceId, assetId, settings.data?.enabled === true);
  if (!settings.data?.enabled) return null;
  const list = faces.data?.data ?? [];
  return (
    <Stack gap={6} data-testid="faces-section">
      <Group justify="space-between" wrap="nowrap">
        <Title order={3} c="dimmed" tt="uppercase" fz={11} lts={0.5}>
          People
        </Title>
        {/* md: a 24 px target (WCAG 2.5.8); at the foot of a phone's sheet it sits by the tab bar. */}
        <Switch
          size="md"
          label="Show faces"
          checked={shown}
          onChange={(e) => showFacesStore.set(e.currentTarget.checked)}
          data-testid="show-faces"
        />
      </Group>
      {faces.isPending ? (
        <Loader size="xs" aria-label="Loading faces" />
      ) : faces.isError ? (
        <Text size="sm" c="red">
          Failed to load faces
        </Text>
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          {faces.data?.scanned ? "No faces found." : "Faces have not been looked for yet."}
        </Text>
      ) : (
        <Stack gap={6}>
          {list.map((f) => (
            <Group key={f.id} gap="xs" wrap="nowrap" data-testid="asset-face">
              <FaceCrop face={f} size={36} />
              <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                {f.person ? (
                  <Anchor component={Link} to={`/w/${workspaceId}/people/${f.person.id}`} size="sm" truncate>
                    {personName(f.person)}
                  </Anchor>
                ) : (
                  <Text size="sm" c="dimmed">
                    {f.groupable ? "Not recognised yet" : "Too small or blurred to group"}
                  </Text>
                )}
              </Stack>
              {editable && (
                <WhoIsThis workspaceId={workspaceId} face={f} label={f.person?.name ? "Change" : "Who is this?"} />
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

import { Paper, Stack, Switch, Text } from "@mantine/core";
import { openConfirm } from "../../../lib/confirm-modal";
import { useFaceSettings, useSetFaceSettings } from "../api";

/**
 * ADMIN (issue 32): face recognition on or off for the workspace. Off deletes every face, descriptor
 * and person at once (asked first); on looks at every picture again in the background.
 */
export function FaceRecognitionSetting({ workspaceId }: { workspaceId: string }) {
  const settings = useFaceSettings(workspaceId);
  const save = useSetFaceSettings(workspaceId);
  const enabled = settings.data?.enabled ?? false;
  const change = (next: boolean) => {
    if (next) return save.mutate(true);
    void openConfirm({
      title: "Turn face recognition off?",
      children: (
        <Text size="sm">
          Every face, face descriptor and person of this workspace is deleted now, with the names given to them. Turning
          it on again finds the faces again, but not the names.
        </Text>
      ),
      labels: { confirm: "Turn off and delete", cancel: "Cancel" },
      confirmProps: { color: "red", "data-testid": "faces-off-confirm" } as Record<string, unknown>,
      onConfirm: () => save.mutate(false),
    });
  };
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="face-recognition-setting">
      <Stack gap={6}>
        <Switch
          label="Face recognition"
          description="Find faces in pictures and group them into people."
          checked={enabled}
          disabled={settings.isPending || save.isPending}
          onChange={(e) => change(e.currentTarget.checked)}
          data-testid="face-recognition-switch"
        />
      </Stack>
    </Paper>
  );
}

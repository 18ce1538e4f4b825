import { canAdmin } from "@hangar/contract";
import { Button, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { type FormEvent, useEffect } from "react";
import { useCurrentWorkspace, useRenameWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { serverFieldErrors, useFormState } from "../../../lib/forms";
import { notifyError } from "../../../lib/notify";
import { RoleBadge } from "../../../ui/role-badge";
import { FaceRecognitionSetting } from "../../people";
import { WorkspaceSsoSetting } from "../../sso";
import { DeleteWorkspaceDialog } from "../../workspaces";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "long" });

export function SettingsDetailsPage() {
  const workspace = useCurrentWorkspace();
  const isAdmin = canAdmin(workspace.user_role);
  const rename = useRenameWorkspace(workspace.id);
  const form = useFormState({ name: workspace.name });
  const { reset } = form;

  // Follow the saved name (after a rename, or when another workspace opens).
  useEffect(() => reset({ name: workspace.name }), [workspace.name, reset]);

  const trimmed = form.values.name.trim();
  const unchanged = trimmed === workspace.name;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed) {
      form.setErrors({ name: "Name is required" });
      return;
    }
    if (unchanged) return;
    rename.mutate(trimmed, {
      onError: (error) => {
        const fields = serverFieldErrors(error, ["name"] as const);
        form.setErrors(fields);
        if (!fields.name) notifyError(errorMessage(error, "Failed to rename workspace"));
      },
    });
  };

  return (
    <Stack gap="lg" data-testid="settings-details">
      <Paper withBorder radius="lg" p="lg">
        <form onSubmit={submit} noValidate data-testid="rename-workspace-form">
          <Stack gap="md">
            <Title order={2} size="h4">
              Workspace details
            </Title>
            <TextInput
              label="Workspace name"
              maxLength={100}
              readOnly={!isAdmin}
              description={isAdmin ? undefined : "Only admins can rename the workspace."}
              {...form.bind("name")}
            />
            <Group gap="xl">
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  Your role
                </Text>
                <RoleBadge role={workspace.user_role} />
              </Stack>
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  Members
                </Text>
                <Text size="sm">{workspace.member_count}</Text>
              </Stack>
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  Created
                </Text>
                <Text size="sm">{dateFormat.format(new Date(workspace.created_at))}</Text>
              </Stack>
            </Group>
            {isAdmin && (
              <Group justify="flex-end">
                <Button type="submit" loading={rename.isPending} disabled={unchanged || !trimmed}>
                  Save
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      </Paper>
      {isAdmin && <FaceRecognitionSetting workspaceId={workspace.id} />}
      {isAdmin && <WorkspaceSsoSetting workspaceId={workspace.id} />}
      {isAdmin && (
        <Paper withBorder radius="lg" p="lg" style={{ borderColor: "var(--mantine-color-red-3)" }}>
          <Stack gap="sm" align="flex-start">
            <Title order={2} size="h4" c="red.8">
              Delete workspace
            </Title>
            <Text size="sm" c="dimmed">
              Removes the workspace for every member. You can restore it within 30 days.
            </Text>
            <DeleteWorkspaceDialog workspace={workspace} />
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

import { Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import type { FormEvent } from "react";
import { Link } from "react-router-dom";
import { useCreateWorkspace, useSelectWorkspace, useWorkspaces } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { serverFieldErrors, useFormState } from "../../../lib/forms";
import { notifyError } from "../../../lib/notify";
import { usePageTitle } from "../../../lib/page-title";
import { useCurrentUser, useLogout } from "../../auth";

const NAME_MAX = 100;

function nameError(value: string): string | undefined {
  if (!value.trim()) return "Name is required";
  if (value.trim().length > NAME_MAX) return "Name is too long";
  return undefined;
}

export function CreateWorkspacePage() {
  usePageTitle("Create a workspace");
  const user = useCurrentUser();
  const workspaces = useWorkspaces();
  const create = useCreateWorkspace();
  const selectWorkspace = useSelectWorkspace();
  const logout = useLogout();
  const form = useFormState({ name: "" });
  const hasWorkspaces = (workspaces.data?.length ?? 0) > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const error = nameError(form.values.name);
    form.setErrors({ name: error });
    if (error) return;
    create.mutate(form.values.name.trim(), {
      onSuccess: (workspace) => selectWorkspace(workspace.id),
      onError: (err) => {
        const fields = serverFieldErrors(err, ["name"] as const);
        form.setErrors(fields);
        if (!fields.name) notifyError(errorMessage(err, "Failed to create workspace"));
      },
    });
  };

  return (
    <Stack gap="lg">
      <Paper withBorder shadow="sm" radius="lg" p={{ base: "lg", sm: "xl" }}>
        <form onSubmit={submit} noValidate data-testid="create-workspace-form">
          <Stack gap="lg">
            <Stack gap={6}>
              <Title order={1} size="h3">
                {hasWorkspaces ? "Create a workspace" : `Welcome, ${user.first_name || "there"}`}
              </Title>
              <Text c="dimmed" size="sm">
                {hasWorkspaces
                  ? "A workspace holds its own assets, boards and members."
                  : "Start with a workspace for your team. It holds your assets, boards and members; you can invite people next."}
              </Text>
            </Stack>
            <TextInput
              label="Workspace name"
              placeholder="e.g. Northwind Studio"
              maxLength={NAME_MAX}
              required
              autoFocus
              {...form.bind("name")}
            />
            <Group justify="flex-end" gap="sm">
              {hasWorkspaces && (
                <Button component={Link} to="/w" variant="default">
                  Cancel
                </Button>
              )}
              <Button type="submit" loading={create.isPending}>
                Create workspace
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <Text size="xs" c="dimmed" ta="center">
        Signed in as {user.email} ·{" "}
        <Anchor component="button" type="button" size="xs" onClick={() => logout.mutate()}>
          Sign out
        </Anchor>
      </Text>
    </Stack>
  );
}

import type { Workspace } from "@hangar/contract";
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconAlertTriangle, IconTrash } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useDeleteWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { notifyError } from "../../../lib/notify";

/** "Delete workspace" button and its typed confirmation (the name must be typed exactly). */
export function DeleteWorkspaceDialog({ workspace }: { workspace: Workspace }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [typed, setTyped] = useState("");
  const navigate = useNavigate();
  const remove = useDeleteWorkspace(workspace.id);
  const matches = typed.trim() === workspace.name.trim();

  const dismiss = () => {
    close();
    setTyped("");
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!matches) return;
    // mutateAsync: the navigation must happen even if this dialog is gone by the time the call returns.
    remove.mutateAsync().then(
      () => navigate("/w", { replace: true }),
      (error) => notifyError(errorMessage(error, "Failed to delete workspace")),
    );
  };

  return (
    <>
      <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={open}>
        Delete workspace
      </Button>
      <Modal opened={opened} onClose={dismiss} title="Delete workspace" centered>
        <form onSubmit={submit} noValidate data-testid="delete-workspace-form">
          <Stack gap="md">
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
              <strong>{workspace.name}</strong> and everything in it — assets, boards, comments and share links — will
              be deleted for all {workspace.member_count} member{workspace.member_count === 1 ? "" : "s"}. It can be
              restored within 30 days; after that it is gone for good.
            </Alert>
            <TextInput
              label={
                <Text span size="sm" fw={500}>
                  Type <strong>{workspace.name}</strong> to confirm
                </Text>
              }
              aria-label="Workspace name to confirm"
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={dismiss}>
                Cancel
              </Button>
              <Button type="submit" color="red" disabled={!matches} loading={remove.isPending}>
                Delete workspace
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

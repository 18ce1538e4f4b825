import type { Role } from "@hangar/contract";
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconUserPlus } from "@tabler/icons-react";
import type { FormEvent } from "react";
import { errorMessage } from "../../../lib/api-client";
import { emailError, serverFieldErrors, useFormState } from "../../../lib/forms";
import { notifyError } from "../../../lib/notify";
import { ROLE_DESCRIPTIONS, ROLE_OPTIONS } from "../../../ui/role-badge";
import { isPlanLimit, PlanLimitMessage } from "../../billing";
import { useCreateInvite } from "../api";

const FIELDS = ["email", "role"] as const;

/** "Invite" button and its dialog (the dialog owns its open state). */
export function InviteMemberDialog({ workspaceId, workspaceName }: { workspaceId: string; workspaceName: string }) {
  const [opened, { open, close }] = useDisclosure(false);
  const invite = useCreateInvite(workspaceId);
  const form = useFormState({ email: "", role: "EDITOR" });

  const dismiss = () => {
    close();
    form.reset();
    invite.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const error = emailError(form.values.email);
    form.setErrors({ email: error });
    if (error) return;
    invite.mutate(
      { email: form.values.email.trim(), role: form.values.role as Role },
      {
        onSuccess: dismiss,
        onError: (err) => {
          const fields = serverFieldErrors(err, FIELDS);
          form.setErrors(fields);
          // A plan limit stays in the dialog, with the way to upgrade; other failures are a toast.
          if (!fields.email && !fields.role && !isPlanLimit(err))
            notifyError(errorMessage(err, "Failed to send invitation"));
        },
      },
    );
  };

  return (
    <>
      <Button leftSection={<IconUserPlus size={16} />} onClick={open}>
        Invite
      </Button>
      <Modal opened={opened} onClose={dismiss} title="Invite member" centered>
        <form onSubmit={submit} noValidate data-testid="invite-member-form">
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              They get an e-mail with a link to join {workspaceName}. The link works for 7 days.
            </Text>
            <TextInput
              label="E-mail"
              type="email"
              placeholder="colleague@studio.com"
              autoComplete="off"
              required
              data-autofocus
              {...form.bind("email")}
            />
            <Select
              label="Role"
              data={ROLE_OPTIONS}
              value={form.values.role}
              onChange={(value) => value && form.setValue("role", value)}
              allowDeselect={false}
              error={form.errors.role}
              description={ROLE_DESCRIPTIONS[form.values.role as Role]}
              comboboxProps={{ withinPortal: true }}
            />
            {invite.error && isPlanLimit(invite.error) && (
              <Alert color="orange" p="sm">
                <PlanLimitMessage workspaceId={workspaceId} detail={errorMessage(invite.error, "")} />
              </Alert>
            )}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={dismiss}>
                Cancel
              </Button>
              <Button type="submit" loading={invite.isPending}>
                Send invitation
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

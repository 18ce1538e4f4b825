import type { User } from "@hangar/contract";
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { IconMailForward } from "@tabler/icons-react";
import type { FormEvent } from "react";
import { errorMessage } from "../../../lib/api-client";
import { emailError, serverFieldErrors, useFormState } from "../../../lib/forms";
import { notifyError } from "../../../lib/notify";
import { useChangeEmail } from "../api";
import { SettingsSection } from "./settings-section";

export function EmailSection({ user }: { user: User }) {
  const change = useChangeEmail();
  const form = useFormState({ new_email: "", current_password: "" });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = form.values.new_email.trim();
    let error = emailError(value);
    if (!error && value.toLowerCase() === user.email.toLowerCase()) error = "This is already your e-mail address";
    const passwordError = form.values.current_password ? undefined : "Enter your current password";
    form.setErrors({ new_email: error, current_password: passwordError });
    if (error || passwordError) return;
    change.mutate(
      { newEmail: value, currentPassword: form.values.current_password },
      {
        onSuccess: () => form.reset(),
        onError: (err) => {
          const fields = serverFieldErrors(err, ["new_email", "current_password"] as const, { email: "new_email" });
          form.setErrors(fields);
          if (!fields.new_email && !fields.current_password) notifyError(errorMessage(err, "Failed to change e-mail"));
        },
      },
    );
  };

  return (
    <SettingsSection
      title="E-mail"
      description={
        <>
          You sign in with <strong>{user.email}</strong>.
        </>
      }
      testId="email-section"
    >
      {user.pending_email && (
        <Alert color="blue" variant="light" icon={<IconMailForward size={18} />} data-testid="pending-email">
          <Text size="sm">
            Waiting for confirmation of <strong>{user.pending_email}</strong>. Open the link we sent there to finish the
            change; until then you keep signing in with {user.email}.
          </Text>
        </Alert>
      )}
      <form onSubmit={submit} noValidate data-testid="change-email-form">
        <Stack gap="md">
          <TextInput
            label="New e-mail"
            type="email"
            autoComplete="email"
            placeholder="new@studio.com"
            {...form.bind("new_email")}
          />
          <PasswordInput label="Current password" autoComplete="current-password" {...form.bind("current_password")} />
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={change.isPending}
              disabled={!form.values.new_email.trim() || !form.values.current_password}
            >
              Change e-mail
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

import { Button, Group, Stack } from "@mantine/core";
import type { FormEvent } from "react";
import { errorMessage } from "../../../lib/api-client";
import { newPasswordError, noErrors, requiredText, serverFieldErrors, useFormState } from "../../../lib/forms";
import { notifyError } from "../../../lib/notify";
import { PasswordField } from "../../../ui/password-field";
import { useChangePassword } from "../api";
import { SettingsSection } from "./settings-section";

const FIELDS = ["current_password", "new_password", "confirm"] as const;

export function PasswordSection() {
  const change = useChangePassword();
  const form = useFormState({ current_password: "", new_password: "", confirm: "" });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { current_password, new_password, confirm } = form.values;
    const errors = {
      current_password: requiredText(current_password, "Current password is required"),
      new_password:
        newPasswordError(new_password) ??
        (new_password === current_password ? "Choose a password different from the current one" : undefined),
      confirm: confirm === new_password ? undefined : "Passwords do not match",
    };
    form.setErrors(errors);
    if (!noErrors(errors)) return;
    change.mutate(
      { current_password, new_password },
      {
        onSuccess: () => form.reset(),
        onError: (error) => {
          const fields = serverFieldErrors(error, FIELDS);
          form.setErrors(fields);
          if (!noErrors(fields)) return;
          notifyError(errorMessage(error, "Failed to change password"));
        },
      },
    );
  };

  return (
    <SettingsSection
      title="Password"
      description="Use at least 8 characters, ideally a password you use nowhere else."
      testId="password-section"
    >
      <form onSubmit={submit} noValidate data-testid="change-password-form">
        <Stack gap="md">
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            required
            {...form.bind("current_password")}
          />
          <PasswordField
            label="New password"
            autoComplete="new-password"
            description="At least 8 characters"
            required
            {...form.bind("new_password")}
          />
          <PasswordField label="Confirm password" autoComplete="new-password" required {...form.bind("confirm")} />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

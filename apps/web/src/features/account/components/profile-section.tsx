import { ACCOUNT_MESSAGES, type User } from "@hangar/contract";
import { Button, Group, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useEffect } from "react";
import { errorMessage } from "../../../lib/api-client";
import { noErrors, requiredText, serverFieldErrors, useFormState } from "../../../lib/forms";
import { notifyError } from "../../../lib/notify";
import { useUpdateProfile } from "../api";
import { SettingsSection } from "./settings-section";

const FIELDS = ["first_name", "last_name"] as const;

export function ProfileSection({ user }: { user: User }) {
  const update = useUpdateProfile();
  const form = useFormState({ first_name: user.first_name, last_name: user.last_name });
  const { reset } = form;

  useEffect(
    () => reset({ first_name: user.first_name, last_name: user.last_name }),
    [user.first_name, user.last_name, reset],
  );

  const first = form.values.first_name.trim();
  const last = form.values.last_name.trim();
  const unchanged = first === user.first_name && last === user.last_name;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = { first_name: requiredText(first, "First name is required") };
    form.setErrors(errors);
    if (!noErrors(errors) || unchanged) return;
    update.mutate(
      { first_name: first, last_name: last },
      {
        onError: (error) => {
          const fields = serverFieldErrors(error, FIELDS);
          form.setErrors(fields);
          if (!noErrors(fields)) return;
          notifyError(errorMessage(error, ACCOUNT_MESSAGES.updateProfile));
        },
      },
    );
  };

  return (
    <SettingsSection title="Profile" description="Your name as teammates see it." testId="profile-section">
      <form onSubmit={submit} noValidate data-testid="profile-form">
        <Stack gap="md">
          <Group grow align="flex-start">
            <TextInput
              label="First name"
              autoComplete="given-name"
              maxLength={100}
              required
              {...form.bind("first_name")}
            />
            <TextInput
              label="Last name"
              placeholder="Optional"
              autoComplete="family-name"
              maxLength={100}
              {...form.bind("last_name")}
            />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending} disabled={unchanged}>
              Save profile
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

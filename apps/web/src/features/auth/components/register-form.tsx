import type { RegisterAnswer } from "@hangar/contract";
import { Alert, Button, Group, Stack, TextInput } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";
import type { FormEvent } from "react";
import { errorMessage } from "../../../lib/api-client";
import {
  emailError,
  newPasswordError,
  noErrors,
  requiredText,
  serverFieldErrors,
  useFormState,
} from "../../../lib/forms";
import { PasswordField } from "../../../ui/password-field";
import { useRegister } from "../api";

const FIELDS = ["first_name", "last_name", "email", "password"] as const;

/** Sign-up form; with an invite the e-mail is fixed to the invited address and the token goes along. */
export function RegisterForm({
  inviteToken,
  fixedEmail,
  onRegistered,
}: {
  inviteToken?: string;
  fixedEmail?: string;
  onRegistered: (answer: RegisterAnswer, email: string) => void;
}) {
  const register = useRegister();
  const form = useFormState({ first_name: "", last_name: "", email: fixedEmail ?? "", password: "" });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      first_name: requiredText(form.values.first_name, "First name is required"),
      email: emailError(form.values.email),
      password: newPasswordError(form.values.password),
    };
    form.setErrors(errors);
    if (!noErrors(errors)) return;
    const email = form.values.email.trim();
    // mutateAsync, not mutate's callbacks: an invited sign-up signs in, which may re-render the page
    // around this form, and the follow-up navigation must happen regardless.
    register
      .mutateAsync({
        email,
        password: form.values.password,
        first_name: form.values.first_name.trim(),
        last_name: form.values.last_name.trim(),
        invite_token: inviteToken ?? null,
      })
      .then(
        (answer) => onRegistered(answer, email),
        (error) => form.setErrors(serverFieldErrors(error, FIELDS, { new_password: "password" })),
      );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="register-form">
      <Stack gap="md">
        {register.isError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {errorMessage(register.error, "Failed to create account")}
          </Alert>
        )}
        <Group grow align="flex-start" gap="sm">
          <TextInput label="First name" autoComplete="given-name" required autoFocus {...form.bind("first_name")} />
          <TextInput label="Last name" placeholder="Optional" autoComplete="family-name" {...form.bind("last_name")} />
        </Group>
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="email"
          placeholder="you@studio.com"
          required
          readOnly={!!fixedEmail}
          description={fixedEmail ? "The invitation was sent to this address" : undefined}
          {...form.bind("email")}
        />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          description="At least 8 characters"
          required
          {...form.bind("password")}
        />
        <Button type="submit" fullWidth loading={register.isPending}>
          Create account
        </Button>
      </Stack>
    </form>
  );
}

import { Alert, Anchor, Button, Stack, TextInput } from "@mantine/core";
import { IconAlertCircle, IconMailCheck } from "@tabler/icons-react";
import type { FormEvent } from "react";
import { Link } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { emailError, serverFieldErrors, useFormState } from "../../../lib/forms";
import { useForgotPassword } from "../api";
import { AuthCard } from "../components/auth-card";

export function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const form = useFormState({ email: "" });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const error = emailError(form.values.email);
    form.setErrors({ email: error });
    if (error) return;
    forgot.mutate(form.values.email.trim(), {
      onError: (err) => form.setErrors(serverFieldErrors(err, ["email"] as const)),
    });
  };

  return (
    <AuthCard
      title="Reset your password"
      description="Enter the e-mail address of your account and we will send you a link to choose a new password."
      testId="forgot-password-card"
      footer={
        <Anchor component={Link} to="/a/login" fw={500}>
          Back to sign in
        </Anchor>
      }
    >
      {forgot.isSuccess ? (
        <Alert color="green" variant="light" icon={<IconMailCheck size={18} />} role="status" title="Check your inbox">
          {forgot.data?.detail ||
            `If an account exists for ${form.values.email.trim()}, a link to reset the password is on its way.`}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate data-testid="forgot-password-form">
          <Stack gap="md">
            {forgot.isError && (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
                {errorMessage(forgot.error, "Failed to send the reset link")}
              </Alert>
            )}
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="email"
              placeholder="you@studio.com"
              required
              autoFocus
              {...form.bind("email")}
            />
            <Button type="submit" fullWidth loading={forgot.isPending}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

import { Alert, Anchor, Button, Stack } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";
import type { FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { newPasswordError, noErrors, serverFieldErrors, useFormState } from "../../../lib/forms";
import { notifySuccess } from "../../../lib/notify";
import { PasswordField } from "../../../ui/password-field";
import { useResetPassword } from "../api";
import { AuthCard } from "../components/auth-card";

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useFormState({ new_password: "", confirm: "" });

  const backToSignIn = (
    <Anchor component={Link} to="/a/login" fw={500}>
      Back to sign in
    </Anchor>
  );

  if (!token) {
    return (
      <AuthCard title="Reset your password" footer={backToSignIn} testId="reset-password-card">
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          This reset link is incomplete. Open the link from the e-mail again, or{" "}
          <Anchor component={Link} to="/a/forgot-password" inherit>
            request a new one
          </Anchor>
          .
        </Alert>
      </AuthCard>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      new_password: newPasswordError(form.values.new_password),
      confirm: form.values.confirm === form.values.new_password ? undefined : "Passwords do not match",
    };
    form.setErrors(errors);
    if (!noErrors(errors)) return;
    reset.mutate(
      { token, new_password: form.values.new_password },
      {
        onSuccess: (answer) => {
          const notice = answer?.detail || "Your password has been reset. Sign in with your new password.";
          notifySuccess("Password reset");
          navigate("/a/login", { replace: true, state: { notice } });
        },
        onError: (error) =>
          form.setErrors(serverFieldErrors(error, ["new_password"] as const, { password: "new_password" })),
      },
    );
  };

  return (
    <AuthCard
      title="Choose a new password"
      description="Pick a password you do not use anywhere else."
      footer={backToSignIn}
      testId="reset-password-card"
    >
      <form onSubmit={submit} noValidate data-testid="reset-password-form">
        <Stack gap="md">
          {reset.isError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {errorMessage(reset.error, "Failed to reset password")}{" "}
              <Anchor component={Link} to="/a/forgot-password" inherit>
                Request a new link
              </Anchor>
            </Alert>
          )}
          <PasswordField
            label="New password"
            autoComplete="new-password"
            description="At least 8 characters"
            required
            autoFocus
            {...form.bind("new_password")}
          />
          <PasswordField label="Confirm password" autoComplete="new-password" required {...form.bind("confirm")} />
          <Button type="submit" fullWidth loading={reset.isPending}>
            Reset password
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

import { ACCOUNT_MESSAGES } from "@hangar/contract";
import { Anchor, Button, Stack, Text, TextInput, ThemeIcon } from "@mantine/core";
import { IconMail } from "@tabler/icons-react";
import type { FormEvent } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { emailError, useFormState } from "../../../lib/forms";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { useResendVerification } from "../api";
import { AuthCard } from "../components/auth-card";

export function AwaitingVerificationPage() {
  const [params] = useSearchParams();
  const knownEmail = params.get("email")?.trim() ?? "";
  const resend = useResendVerification();
  const form = useFormState({ email: knownEmail });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const error = emailError(form.values.email);
    form.setErrors({ email: error });
    if (error) return;
    const email = form.values.email.trim();
    resend.mutate(email, {
      onSuccess: (answer) => notifySuccess(answer?.detail || `Verification e-mail sent to ${email}`),
      onError: (err) => notifyError(errorMessage(err, ACCOUNT_MESSAGES.resendVerification)),
    });
  };

  return (
    <AuthCard
      title="Check your inbox"
      testId="awaiting-verification-card"
      footer={
        <Anchor component={Link} to="/a/login" fw={500}>
          Back to sign in
        </Anchor>
      }
    >
      <Stack gap="md" align="flex-start">
        <ThemeIcon size={44} radius="xl" variant="light" aria-hidden>
          <IconMail size={24} />
        </ThemeIcon>
        {knownEmail ? (
          <Text size="sm">
            We sent a verification link to <strong>{knownEmail}</strong>. Open it to activate your account, then you can
            start your first workspace.
          </Text>
        ) : (
          <Text size="sm">
            Your account needs a verified e-mail address before you can sign in. Enter it below and we will send a new
            link.
          </Text>
        )}
        <Text size="sm" c="dimmed">
          Nothing arrived? Check the spam folder, or send the link again.
        </Text>
      </Stack>
      <form onSubmit={submit} noValidate data-testid="resend-verification-form">
        <Stack gap="md">
          {!knownEmail && (
            <TextInput label="E-mail" type="email" autoComplete="email" required {...form.bind("email")} />
          )}
          <Button type="submit" variant={knownEmail ? "light" : "filled"} fullWidth loading={resend.isPending}>
            Resend verification e-mail
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

import { SSO_ERROR_PARAM } from "@hangar/contract";
import { Alert, Anchor, Button, Divider, Group, Skeleton, Stack, TextInput } from "@mantine/core";
import { IconAlertCircle, IconCircleCheck, IconMailForward } from "@tabler/icons-react";
import type { FormEvent } from "react";
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { type ApiError, errorMessage, isApiError } from "../../../lib/api-client";
import { emailError, noErrors, requiredText, safeNextPath, serverFieldErrors, useFormState } from "../../../lib/forms";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { PasswordField } from "../../../ui/password-field";
import { SsoButton, useSignInOptions } from "../../sso";
import { useLogin, useMe, useResendVerification } from "../api";
import { AuthCard } from "../components/auth-card";

const FIELDS = ["email", "password"] as const;

export function LoginPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const next = safeNextPath(params.get("next"));
  const notice = (location.state as { notice?: string } | null)?.notice;
  const me = useMe();
  const login = useLogin();
  const resend = useResendVerification();
  const options = useSignInOptions();
  // Single sign-on's callback comes back here with its refusal as a readable text.
  const ssoError = params.get(SSO_ERROR_PARAM);
  const sso = options.data?.sso;
  // Until the options answer, the usual form (an error loading them leaves passwords on).
  const passwordEnabled = options.data?.password_enabled ?? true;
  const form = useFormState({ email: params.get("email") ?? "", password: "" });

  // Signed in (already, or just now): continue where the user was going.
  if (me.data && !login.isPending) return <Navigate to={next} replace />;

  const failure = login.error as ApiError | null;
  const notVerified = isApiError(failure) && failure.code === "EMAIL_NOT_VERIFIED";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      email: emailError(form.values.email),
      password: requiredText(form.values.password, "Password is required"),
    };
    form.setErrors(errors);
    if (!noErrors(errors)) return;
    login.mutate(
      { email: form.values.email.trim(), password: form.values.password },
      { onError: (error) => form.setErrors(serverFieldErrors(error, FIELDS)) },
    );
  };

  const resendAndContinue = () => {
    const email = form.values.email.trim();
    resend.mutate(email, {
      onSuccess: (answer) => notifySuccess(answer?.detail || `Verification e-mail sent to ${email}`),
      onError: (error) => notifyError(errorMessage(error, "Failed to resend verification email")),
      onSettled: () => navigate(`/a/awaiting-verification?email=${encodeURIComponent(email)}`),
    });
  };

  const registerHref = params.get("next") ? `/a/register?next=${encodeURIComponent(next)}` : "/a/register";

  return (
    <AuthCard
      title="Sign in to Hangar"
      description="Welcome back. Sign in to your workspaces."
      testId="login-card"
      footer={
        passwordEnabled ? (
          <>
            New to Hangar?{" "}
            <Anchor component={Link} to={registerHref} fw={500}>
              Create an account
            </Anchor>
          </>
        ) : (
          "Accounts are made by signing in with your organisation's account."
        )
      }
    >
      {ssoError && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" data-testid="sso-error">
          {ssoError}
        </Alert>
      )}
      {options.isPending && <Skeleton height={36} radius="sm" />}
      {sso?.enabled && (
        <Stack gap="md">
          <SsoButton text={sso.button_text} next={next} variant={passwordEnabled ? "default" : "filled"} />
          {passwordEnabled && <Divider label="or with your e-mail and password" labelPosition="center" />}
        </Stack>
      )}
      {notice && (
        <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} role="status">
          {notice}
        </Alert>
      )}
      {failure && !notVerified && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" data-testid="login-error">
          {errorMessage(failure, "Failed to sign in")}
        </Alert>
      )}
      {notVerified && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconMailForward size={18} />}
          role="alert"
          title="Verification needed"
        >
          <Stack gap="sm" align="flex-start">
            {failure.detail}
            <Button size="xs" variant="white" color="yellow" onClick={resendAndContinue} loading={resend.isPending}>
              Resend verification e-mail
            </Button>
          </Stack>
        </Alert>
      )}
      {passwordEnabled && (
        <form onSubmit={submit} noValidate data-testid="login-form">
          <Stack gap="md">
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="email"
              placeholder="you@studio.com"
              required
              autoFocus
              {...form.bind("email")}
            />
            <Stack gap={6}>
              <PasswordField label="Password" autoComplete="current-password" required {...form.bind("password")} />
              <Group justify="flex-end">
                <Anchor component={Link} to="/a/forgot-password" size="sm">
                  Forgot password?
                </Anchor>
              </Group>
            </Stack>
            <Button type="submit" fullWidth loading={login.isPending}>
              Sign in
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

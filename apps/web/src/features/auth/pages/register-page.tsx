import { Anchor } from "@mantine/core";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { safeNextPath } from "../../../lib/forms";
import { useMe } from "../api";
import { AuthCard } from "../components/auth-card";
import { RegisterForm } from "../components/register-form";

export function RegisterPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const me = useMe();
  const next = safeNextPath(params.get("next"));

  // Signed in (already, or by an invited sign-up): /w opens the right workspace.
  if (me.data) return <Navigate to={next} replace />;

  const loginHref = params.get("next") ? `/a/login?next=${encodeURIComponent(next)}` : "/a/login";

  return (
    <AuthCard
      title="Create your account"
      description="Keep your team's images, video and documents in one calm place."
      testId="register-card"
      footer={
        <>
          Already have an account?{" "}
          <Anchor component={Link} to={loginHref} fw={500}>
            Sign in
          </Anchor>
        </>
      }
    >
      <RegisterForm
        onRegistered={(answer, email) => {
          if (!answer.signed_in) navigate(`/a/awaiting-verification?email=${encodeURIComponent(email)}`);
        }}
      />
    </AuthCard>
  );
}

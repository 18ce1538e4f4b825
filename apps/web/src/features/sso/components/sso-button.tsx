import { Button } from "@mantine/core";
import { IconKey } from "@tabler/icons-react";
import { ssoStartHref } from "../api";

/**
 * "Sign in with …": a plain link (a top-level navigation to the provider and back), so the
 * provider's page, cookies and redirects work as in any browser.
 */
export function SsoButton({ text, next, variant = "filled" }: { text: string; next?: string; variant?: string }) {
  return (
    <Button
      component="a"
      href={ssoStartHref(next)}
      fullWidth
      variant={variant}
      leftSection={<IconKey size={18} aria-hidden />}
      data-testid="sso-button"
    >
      {text}
    </Button>
  );
}

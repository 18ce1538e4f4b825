import { PasswordInput, type PasswordInputProps } from "@mantine/core";

/**
 * PasswordInput whose show/hide button is not named "…password…", so the input alone answers to its
 * label (getByLabel("Password") in tests, and less noise for screen readers).
 */
export function PasswordField(props: PasswordInputProps) {
  return <PasswordInput visibilityToggleButtonProps={{ "aria-label": "Show or hide characters" }} {...props} />;
}

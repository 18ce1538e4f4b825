import { Stack } from "@mantine/core";
import { PageHeader } from "../../../ui/page-header";
import { PersonalTokens } from "../../api-keys";
import { useCurrentUser } from "../../auth";
import { AvatarSection } from "../components/avatar-section";
import { EmailSection } from "../components/email-section";
import { PasswordSection } from "../components/password-section";
import { ProfileSection } from "../components/profile-section";
import { SettingsSection } from "../components/settings-section";

export function AccountSettingsPage() {
  const user = useCurrentUser();
  return (
    <Stack gap="lg" maw={720} data-testid="account-settings">
      <PageHeader
        title="Account settings"
        description="Your profile, e-mail, password and access tokens, for every workspace."
      />
      <ProfileSection user={user} />
      <AvatarSection user={user} />
      <EmailSection user={user} />
      <PasswordSection />
      <SettingsSection title="Personal access tokens" testId="personal-tokens-section">
        <PersonalTokens />
      </SettingsSection>
    </Stack>
  );
}

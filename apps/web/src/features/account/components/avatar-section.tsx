import type { User } from "@hangar/contract";
import { Button, FileButton, Group, Stack, Text } from "@mantine/core";
import { IconTrash, IconUpload } from "@tabler/icons-react";
import { errorMessage } from "../../../lib/api-client";
import { notifyError } from "../../../lib/notify";
import { UserAvatar } from "../../../ui/user-avatar";
import { useRemoveAvatar, useUploadAvatar } from "../api";
import { SettingsSection } from "./settings-section";

const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
const ACCEPT = "image/png,image/jpeg,image/webp,image/gif";

export function AvatarSection({ user }: { user: User }) {
  const upload = useUploadAvatar();
  const remove = useRemoveAvatar();

  const pick = (file: File | null) => {
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      notifyError("Choose an image file (PNG, JPEG, WebP or GIF)");
      return;
    }
    if (file.size > MAX_AVATAR_BYTES) {
      notifyError("The image is larger than 5 MB");
      return;
    }
    upload.mutate(file, { onError: (error) => notifyError(errorMessage(error, "Failed to upload avatar")) });
  };

  return (
    <SettingsSection
      title="Avatar"
      description="Shown next to your comments and in member lists."
      testId="avatar-section"
    >
      <Group gap="lg" wrap="nowrap">
        <UserAvatar person={user} size={72} />
        <Stack gap="xs">
          <Group gap="sm">
            <FileButton onChange={pick} accept={ACCEPT}>
              {(props) => (
                <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                  Upload avatar
                </Button>
              )}
            </FileButton>
            {user.avatar_url && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(undefined, {
                    onError: (error) => notifyError(errorMessage(error, "Failed to remove avatar")),
                  })
                }
              >
                Remove avatar
              </Button>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            PNG, JPEG, WebP or GIF, up to 5 MB. Without a picture your initials are shown.
          </Text>
        </Stack>
      </Group>
    </SettingsSection>
  );
}

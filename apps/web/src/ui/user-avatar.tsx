import { initials } from "@hangar/contract";
import { Avatar, type MantineSize } from "@mantine/core";

export interface AvatarPerson {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  avatar_url?: string | null;
}

export function displayName(person: AvatarPerson): string {
  const name = `${person.first_name ?? ""} ${person.last_name ?? ""}`.trim();
  return name || person.email || "Unknown user";
}

/** The user's picture, or their initials ("?" when there are none) on a neutral background. */
export function UserAvatar({ person, size = "md" }: { person: AvatarPerson; size?: MantineSize | number }) {
  return (
    <Avatar src={person.avatar_url || null} alt={displayName(person)} size={size} radius="xl" color="brand">
      {initials(person)}
    </Avatar>
  );
}

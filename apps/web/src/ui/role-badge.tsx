import type { Role } from "@hangar/contract";
import { Badge } from "@mantine/core";

export const ROLE_LABELS: Record<Role, string> = { ADMIN: "Admin", EDITOR: "Editor", COMMENTER: "Commenter" };

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  ADMIN: "Manages members and settings, and edits everything",
  EDITOR: "Uploads, organises and edits assets and boards",
  COMMENTER: "Views and comments",
};

export const ROLE_OPTIONS = (Object.keys(ROLE_LABELS) as Role[]).map((value) => ({ value, label: ROLE_LABELS[value] }));

const ROLE_COLORS: Record<Role, string> = { ADMIN: "brand", EDITOR: "teal", COMMENTER: "gray" };

export function RoleBadge({ role }: { role: Role }) {
  return (
    <Badge variant="light" color={ROLE_COLORS[role]} radius="sm">
      {ROLE_LABELS[role]}
    </Badge>
  );
}

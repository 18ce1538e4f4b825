import { type Asset, daysLeft, RIGHTS_MESSAGES, rightsStatus } from "@hangar/contract";
import { Badge } from "@mantine/core";
import { IconLicense } from "@tabler/icons-react";

/**
 * "Rights expired" / "Expires in N days" for an asset, judged now from its expiry (a page left open
 * turns "Expires in 1 day" into "Rights expired" on its next render); nothing otherwise.
 */
export function rightsBadgeText(asset: Pick<Asset, "rights">, now = new Date()): string | null {
  // Answers from before issue 33 (and hand-made test assets) carry none.
  if (!asset.rights) return null;
  const status = rightsStatus(asset.rights, now);
  if (status === "expired") return RIGHTS_MESSAGES.expired;
  if (status === "expiring" && asset.rights.expires_at)
    return RIGHTS_MESSAGES.expiresIn(daysLeft(asset.rights.expires_at, now));
  return null;
}

export function RightsBadge({ asset }: { asset: Pick<Asset, "rights"> }) {
  const text = rightsBadgeText(asset);
  if (!text) return null;
  return (
    <Badge
      color={text === RIGHTS_MESSAGES.expired ? "red" : "orange"}
      variant="filled"
      tt="none"
      leftSection={<IconLicense size={12} />}
      data-testid="rights-badge"
    >
      {text}
    </Badge>
  );
}

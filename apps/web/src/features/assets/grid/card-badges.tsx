import type { Asset } from "@hangar/contract";
import { IconAlertTriangle, IconChecklist, IconMessageCircle, IconPlayerPlayFilled } from "@tabler/icons-react";
import type { CSSProperties, ReactNode } from "react";
import { formatDuration } from "../../../entities/format";
import { reviewColor, reviewLabel } from "../../../entities/review";
import classes from "./card-badges.module.css";

/**
 * A badge drawn as Mantine's Badge draws it (the same sizes, colours and parts, see card-badges.module.css)
 * from plain elements: a scrolled grid mounts a dozen cards a frame, and Mantine's Badge (props,
 * styles and style-prop resolution per badge) was a large part of each card's script (bench/web).
 */
function CardBadge({
  size,
  bg,
  color = "var(--mantine-color-white)",
  icon,
  children,
  style,
  ...rest
}: {
  size: "xs" | "sm";
  bg: string;
  color?: string;
  icon?: ReactNode;
  children: ReactNode;
  style?: CSSProperties;
  "aria-label"?: string;
  "data-testid"?: string;
  "data-status"?: string;
}) {
  return (
    <div
      className={classes.badge}
      data-size={size}
      data-with-left-section={icon ? true : undefined}
      style={{ "--badge-bg": bg, "--badge-color": color, ...style } as CSSProperties}
      {...rest}
    >
      {icon && <span className={classes.section}>{icon}</span>}
      <span className={classes.label}>{children}</span>
    </div>
  );
}

/** A field option's colour (hex) as a filled badge's background; none: Mantine's gray. */
const chipBackground = (color: string | null) => color ?? "var(--mantine-color-gray-filled)";

const tagStyle = { opacity: 0.92, textTransform: "none", maxWidth: "calc(6.875rem * var(--mantine-scale))" } as const;

/** Issue 29: an asset re-uploaded at least once says which version it shows. */
const hasVersions = (asset: Asset) => (asset.version_count ?? 1) > 1 && !!asset.current_version;

/** Whether CardBadges draws anything (a card without badges leaves out their row). */
export const hasBadges = (asset: Asset, chip: Asset["field_chips"][number] | undefined) =>
  !!asset.approval ||
  hasVersions(asset) ||
  asset.file_type === "VIDEO" ||
  asset.open_comment_count > 0 ||
  asset.status === "error" ||
  !!chip ||
  asset.tags.length > 0;

/**
 * The badges along a card's picture: the approval status (issue 30: the latest review holding the
 * asset; none when no review does), the version, video length, open comments, failure, the field
 * chip, two tags and how many more.
 */
export function CardBadges({ asset, chip }: { asset: Asset; chip: Asset["field_chips"][number] | undefined }) {
  const approval = asset.approval;
  return (
    <>
      {approval && (
        <CardBadge
          size="sm"
          bg={`var(--mantine-color-${reviewColor(approval.status)}-filled)`}
          icon={<IconChecklist size={10} />}
          style={{ textTransform: "none", maxWidth: "calc(8.5rem * var(--mantine-scale))" }}
          aria-label={`${reviewLabel(approval.status)} in the review “${approval.review_title}”`}
          data-testid="card-approval"
          data-status={approval.status}
        >
          {reviewLabel(approval.status)}
        </CardBadge>
      )}
      {hasVersions(asset) && (
        <CardBadge
          size="sm"
          bg="var(--mantine-color-indigo-filled)"
          aria-label={`Version ${asset.current_version?.number} of ${asset.version_count}`}
          data-testid="card-version"
        >
          v{asset.current_version?.number}
        </CardBadge>
      )}
      {asset.file_type === "VIDEO" && (
        <CardBadge
          size="sm"
          bg="var(--mantine-color-dark-filled)"
          icon={<IconPlayerPlayFilled size={10} />}
          style={{ opacity: 0.85 }}
        >
          {asset.duration ? formatDuration(asset.duration) : "Video"}
        </CardBadge>
      )}
      {asset.open_comment_count > 0 && (
        <CardBadge
          size="sm"
          bg="var(--mantine-color-yellow-filled)"
          icon={<IconMessageCircle size={10} />}
          aria-label={`${asset.open_comment_count} open comment ${asset.open_comment_count === 1 ? "thread" : "threads"}`}
          data-testid="card-open-comments"
        >
          {asset.open_comment_count}
        </CardBadge>
      )}
      {asset.status === "error" && (
        <CardBadge size="sm" bg="var(--mantine-color-red-filled)" icon={<IconAlertTriangle size={10} />}>
          Failed
        </CardBadge>
      )}
      {chip && (
        <CardBadge
          size="xs"
          bg={chipBackground(chip.color)}
          style={{ opacity: 0.95, textTransform: "none", maxWidth: "calc(7.5rem * var(--mantine-scale))" }}
          data-testid="card-field-chip"
        >
          {chip.display}
        </CardBadge>
      )}
      {asset.tags.slice(0, 2).map((tag) => (
        <CardBadge
          key={tag}
          size="xs"
          bg="var(--mantine-color-white)"
          color="var(--mantine-color-gray-filled)"
          style={tagStyle}
          data-testid="card-tag"
        >
          {tag}
        </CardBadge>
      ))}
      {asset.tags.length > 2 && (
        <CardBadge
          size="xs"
          bg="var(--mantine-color-white)"
          color="var(--mantine-color-gray-filled)"
          style={{ opacity: 0.92 }}
          data-testid="card-tag-more"
        >
          +{asset.tags.length - 2}
        </CardBadge>
      )}
    </>
  );
}

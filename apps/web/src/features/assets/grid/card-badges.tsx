import { type Asset, RIGHTS_MESSAGES } from "@hangar/contract";
import {
  IconAlertTriangle,
  IconChecklist,
  IconLicense,
  IconMessageCircle,
  IconPlayerPlayFilled,
} from "@tabler/icons-react";
import { type CSSProperties, Fragment, type ReactNode } from "react";
import { formatDuration } from "../../../entities/format";
import { reviewColor, reviewLabel } from "../../../entities/review";
import { rightsBadgeText } from "../../rights";
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
  "data-shrink"?: boolean;
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

/** One badge of a card: what it shows (`text`), how, and what a screen reader hears for it (`label`). */
export interface CardBadgeSpec {
  key: string;
  size: "xs" | "sm";
  bg: string;
  color?: string;
  icon?: ReactNode;
  /** The badge's visible text; the card's accessible name repeats it (WCAG 2.5.3, see AssetCard). */
  text: string;
  style?: CSSProperties;
  label?: string;
  testId?: string;
  status?: string;
  /** Gives way in a full row (down to a letter); the others keep their size (card-badges.module.css). */
  shrink?: boolean;
}

const whiteBadge = { bg: "var(--mantine-color-white)", color: "var(--mantine-color-gray-filled)" } as const;

/**
 * The badges along a card's picture, in the order they show: the approval status (issue 30: the
 * latest review holding the asset; none when no review does), the version, video length, open
 * comments, failure, the field chip, two tags and how many more.
 */
export function cardBadges(asset: Asset, chip: Asset["field_chips"][number] | undefined): CardBadgeSpec[] {
  const out: CardBadgeSpec[] = [];
  // Usage rights expiring or expired (issue 33) come first: they decide whether it may go out at all.
  const rights = rightsBadgeText(asset);
  if (rights)
    out.push({
      key: "rights",
      size: "sm",
      bg: `var(--mantine-color-${rights === RIGHTS_MESSAGES.expired ? "red" : "orange"}-filled)`,
      icon: <IconLicense size={10} />,
      style: { textTransform: "none" },
      text: rights,
      testId: "card-rights",
      shrink: true,
    });
  const approval = asset.approval;
  if (approval)
    out.push({
      key: "approval",
      size: "sm",
      bg: `var(--mantine-color-${reviewColor(approval.status)}-filled)`,
      icon: <IconChecklist size={10} />,
      style: { textTransform: "none", maxWidth: "calc(8.5rem * var(--mantine-scale))" },
      text: reviewLabel(approval.status),
      label: `${reviewLabel(approval.status)} in the review “${approval.review_title}”`,
      testId: "card-approval",
      status: approval.status,
      shrink: true,
    });
  if (hasVersions(asset))
    out.push({
      key: "version",
      size: "sm",
      bg: "var(--mantine-color-indigo-filled)",
      text: `v${asset.current_version?.number}`,
      label: `Version ${asset.current_version?.number} of ${asset.version_count}`,
      testId: "card-version",
    });
  if (asset.file_type === "VIDEO")
    out.push({
      key: "video",
      size: "sm",
      bg: "var(--mantine-color-dark-filled)",
      icon: <IconPlayerPlayFilled size={10} />,
      style: { opacity: 0.85 },
      text: asset.duration ? formatDuration(asset.duration) : "Video",
    });
  if (asset.open_comment_count > 0)
    out.push({
      key: "comments",
      size: "sm",
      bg: "var(--mantine-color-yellow-filled)",
      icon: <IconMessageCircle size={10} />,
      text: String(asset.open_comment_count),
      label: `${asset.open_comment_count} open comment ${asset.open_comment_count === 1 ? "thread" : "threads"}`,
      testId: "card-open-comments",
    });
  if (asset.status === "error")
    out.push({
      key: "failed",
      size: "sm",
      bg: "var(--mantine-color-red-filled)",
      icon: <IconAlertTriangle size={10} />,
      text: "Failed",
    });
  if (chip)
    out.push({
      key: "chip",
      size: "xs",
      bg: chipBackground(chip.color),
      style: { opacity: 0.95, textTransform: "none", maxWidth: "calc(7.5rem * var(--mantine-scale))" },
      text: chip.display,
      testId: "card-field-chip",
      shrink: true,
    });
  for (const tag of asset.tags.slice(0, 2))
    out.push({
      key: `tag:${tag}`,
      size: "xs",
      ...whiteBadge,
      style: tagStyle,
      text: tag,
      testId: "card-tag",
      shrink: true,
    });
  if (asset.tags.length > 2)
    out.push({
      key: "more",
      size: "xs",
      ...whiteBadge,
      style: { opacity: 0.92 },
      text: `+${asset.tags.length - 2}`,
      testId: "card-tag-more",
    });
  return out;
}

/** Whether CardBadges draws anything (a card without badges leaves out their row). */
export const hasBadges = (asset: Asset, chip: Asset["field_chips"][number] | undefined) =>
  cardBadges(asset, chip).length > 0;

/**
 * The badges of cardBadges(), drawn. Each comes after a space: it shows nowhere (white space between
 * flex items is not laid out), and keeps the badges' texts apart as words, as the card's name reads
 * them (axe's label-in-name check joins the text nodes as they are).
 */
export function CardBadges({
  asset,
  chip,
  badges = cardBadges(asset, chip),
}: {
  asset: Asset;
  chip: Asset["field_chips"][number] | undefined;
  /** Given when the caller has them already (AssetCard). */
  badges?: CardBadgeSpec[];
}) {
  return badges.map(({ key, text, label, testId, status, shrink, ...look }) => (
    <Fragment key={key}>
      {" "}
      <CardBadge {...look} aria-label={label} data-testid={testId} data-status={status} data-shrink={shrink}>
        {text}
      </CardBadge>
    </Fragment>
  ));
}

import type { Asset } from "@hangar/contract";
import { Badge, Checkbox, Text } from "@mantine/core";
import { IconAlertTriangle, IconMessageCircle, IconPlayerPlayFilled, IconStarFilled } from "@tabler/icons-react";
import { type KeyboardEvent, type MouseEvent, memo, type ReactNode } from "react";
import { AssetThumb, formatBytes } from "../../uploads";
import { FILE_TYPE_LABELS } from "../filters/labels";
import classes from "./asset-grid.module.css";
import { useCardField } from "./card-field";

/** Spec 01 §4: COMPLETED, has a url, and an IMAGE or VIDEO. */
export const isReady = (asset: Asset) =>
  asset.status === "COMPLETED" && !!asset.url && (asset.file_type === "IMAGE" || asset.file_type === "VIDEO");

/** Ready media show their picture; a processed document or other file shows its page render if it has one. */
const hasPicture = (asset: Asset) => isReady(asset) || (asset.status === "COMPLETED" && !!asset.grid_url);

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

export interface CardHandlers {
  onCardClick: (index: number, event: MouseEvent) => void;
  onOpen: (index: number) => void;
  onToggle: (index: number) => void;
  onFocusCard: (index: number) => void;
}

/**
 * One asset in the grid: its picture (thumbhash placeholder while loading) or file-type icon, a
 * checkbox, the card menu, name and size. A gridcell: focusable (roving tabindex), aria-selected.
 */
export const AssetCard = memo(function AssetCard({
  asset,
  index,
  selected,
  tabbable,
  handlers,
  renderMenu,
}: {
  asset: Asset;
  index: number;
  selected: boolean;
  tabbable: boolean;
  handlers: CardHandlers;
  /** The card's "…" menu (stable across renders, so cards stay memoised). */
  renderMenu?: (asset: Asset) => ReactNode;
}) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === "Enter") {
      event.preventDefault();
      handlers.onOpen(index);
    } else if (event.key === " ") {
      event.preventDefault();
      handlers.onToggle(index);
    }
  };
  const ext = asset.file_extension ? asset.file_extension.toUpperCase() : FILE_TYPE_LABELS[asset.file_type];
  const cardField = useCardField(asset.workspace_id);
  const chip = cardField ? asset.field_chips?.find((c) => c.field_id === cardField) : undefined;

  return (
    // biome-ignore lint/a11y/useSemanticElements: a cell of the virtualised CSS grid (see AssetGrid)
    <div
      role="gridcell"
      tabIndex={tabbable ? 0 : -1}
      aria-selected={selected}
      aria-label={asset.name}
      data-index={index}
      data-asset-id={asset.id}
      data-selected={selected || undefined}
      data-testid="asset-card"
      className={classes.card}
      onClick={(event) => handlers.onCardClick(index, event)}
      onDoubleClick={() => handlers.onOpen(index)}
      // Shift-click would otherwise select the page's text between the two cards.
      onMouseDown={(event) => event.shiftKey && event.preventDefault()}
      onFocus={(event) => event.target === event.currentTarget && handlers.onFocusCard(index)}
      onKeyDown={onKeyDown}
    >
      <div
        className={classes.thumb}
        data-page={!(asset.file_type === "IMAGE" || asset.file_type === "VIDEO") || undefined}
      >
        <AssetThumb asset={hasPicture(asset) ? asset : null} fileType={asset.file_type} iconSize={40} />
        <Checkbox
          className={classes.check}
          classNames={{ input: classes.checkInput }}
          size="sm"
          radius="sm"
          checked={selected}
          tabIndex={-1}
          aria-label={`Select ${asset.name}`}
          onClick={(event) => event.stopPropagation()}
          onDoubleClick={(event) => event.stopPropagation()}
          onChange={() => handlers.onToggle(index)}
        />
        {asset.favorite && <IconStarFilled size={16} className={classes.favorite} aria-label="Favourite" />}
        {renderMenu && <div className={classes.menu}>{renderMenu(asset)}</div>}
        <div className={classes.badges}>
          {asset.file_type === "VIDEO" && (
            <Badge
              size="sm"
              color="dark"
              variant="filled"
              leftSection={<IconPlayerPlayFilled size={10} />}
              style={{ opacity: 0.85 }}
            >
              {asset.duration ? formatDuration(asset.duration) : "Video"}
            </Badge>
          )}
          {asset.open_comment_count > 0 && (
            <Badge
              size="sm"
              color="yellow"
              variant="filled"
              leftSection={<IconMessageCircle size={10} />}
              aria-label={`${asset.open_comment_count} open comment ${asset.open_comment_count === 1 ? "thread" : "threads"}`}
              data-testid="card-open-comments"
            >
              {asset.open_comment_count}
            </Badge>
          )}
          {asset.status === "error" && (
            <Badge size="sm" color="red" variant="filled" leftSection={<IconAlertTriangle size={10} />}>
              Failed
            </Badge>
          )}
          {chip && (
            <Badge
              size="xs"
              variant="filled"
              color={chip.color ?? "gray"}
              tt="none"
              maw={120}
              style={{ opacity: 0.95 }}
              data-testid="card-field-chip"
            >
              {chip.display}
            </Badge>
          )}
          {/* The card's tags, compactly: the first two, then how many more. */}
          {asset.tags.slice(0, 2).map((tag) => (
            <Badge
              key={tag}
              size="xs"
              color="gray"
              variant="white"
              tt="none"
              maw={110}
              style={{ opacity: 0.92 }}
              data-testid="card-tag"
            >
              {tag}
            </Badge>
          ))}
          {asset.tags.length > 2 && (
            <Badge size="xs" color="gray" variant="white" style={{ opacity: 0.92 }} data-testid="card-tag-more">
              +{asset.tags.length - 2}
            </Badge>
          )}
        </div>
      </div>
      <div className={classes.caption}>
        <Text size="sm" fw={500} truncate="end" title={asset.name}>
          {asset.name}
        </Text>
        <Text size="xs" c="dimmed" truncate="end">
          {ext} · {formatBytes(asset.size)}
          {asset.width && asset.height ? ` · ${asset.width}×${asset.height}` : ""}
        </Text>
      </div>
    </div>
  );
});

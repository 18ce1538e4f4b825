import { type Asset, formatBytes } from "@hangar/contract";
import { IconStarFilled } from "@tabler/icons-react";
import {
  type DragEvent,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  memo,
  type ReactNode,
  type SyntheticEvent,
  useEffect,
  useRef,
  useState,
} from "react";
import { AssetThumb, FILE_TYPE_LABELS } from "../../../entities/asset";
import classes from "./asset-grid.module.css";
import { CardBadges, cardBadges } from "./card-badges";

/** Spec 01 §4: COMPLETED, has a url, and an IMAGE or VIDEO. */
export const isReady = (asset: Asset) =>
  asset.status === "COMPLETED" && !!asset.url && (asset.file_type === "IMAGE" || asset.file_type === "VIDEO");

/** Ready media show their picture; a processed document or other file shows its page render if it has one. */
const hasPicture = (asset: Asset) => isReady(asset) || (asset.status === "COMPLETED" && !!asset.grid_url);

export interface CardHandlers {
  onCardClick: (index: number, event: MouseEvent) => void;
  onOpen: (index: number) => void;
  onToggle: (index: number) => void;
  onFocusCard: (index: number) => void;
  /** Files dropped on the card (issue 29: a new version of its asset); absent: drops are not taken. */
  onDropFiles?: (index: number, files: File[]) => void;
}

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes("Files");

/**
 * One asset in the grid: its picture (thumbhash placeholder while loading) or file-type icon, a
 * checkbox, the card menu, name and size. A gridcell: focusable (roving tabindex), aria-selected.
 *
 * Its name is all the card shows, in the order of the markup: the file name, the meta line, the
 * badges ("poster.jpg, JPG, 2.10 MB, 800×600, In review, 3"), so the visible text is in the name
 * (WCAG 2.5.3 Label in Name, axe's label-content-name-mismatch) and a screen reader says the file
 * first. The caption therefore comes first in the markup (CSS puts it under the picture), and a
 * space (laid out nowhere) parts the name from the meta and each badge from the one before, as axe
 * joins the text nodes as they are. What the badges mean ("3 open comment threads") is the card's
 * description: the badges' own labels.
 */
export const AssetCard = memo(function AssetCard({
  asset,
  index,
  selected,
  tabbable,
  handlers,
  renderMenu,
  cardField,
}: {
  asset: Asset;
  index: number;
  selected: boolean;
  tabbable: boolean;
  handlers: CardHandlers;
  /** The card's "…" menu (stable across renders, so cards stay memoised). */
  renderMenu?: (asset: Asset) => ReactNode;
  /** The custom field shown as a chip (useCardField, read once by the grid). */
  cardField: string | null;
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
  const chip = cardField ? asset.field_chips?.find((c) => c.field_id === cardField) : undefined;
  const badges = cardBadges(asset, chip);
  const size = formatBytes(asset.size);
  const dimensions = asset.width && asset.height ? `${asset.width}×${asset.height}` : "";
  const label = [asset.name, ext, size, dimensions, ...badges.map((b) => b.text)].filter(Boolean).join(", ");
  const badgesId = `card-badges-${asset.id}`;

  // The menu (its hooks, Mantine's ActionIcon and Menu) mounts when the card is pointed at or takes
  // focus; until then a look-alike button stands in (hidden, as the menu is, until hover or focus).
  // A scroll mounts a dozen cards a frame that nobody points at (bench/web).
  const [menuOn, setMenuOn] = useState(false);
  const menuSlot = useRef<HTMLDivElement>(null);
  const handOver = useRef<"focus" | "click" | null>(null);
  useEffect(() => {
    const then = handOver.current;
    const button = menuOn && then ? menuSlot.current?.querySelector<HTMLElement>("button") : null;
    if (!button) return;
    handOver.current = null;
    button.focus();
    if (then === "click") button.click();
  }, [menuOn]);
  const menuWanted = () => renderMenu && !menuOn && setMenuOn(true);

  // A file dragged over the card marks it (no re-render: the attribute is the whole state). Enter and
  // leave come for each element inside too: the mark goes when the count of entered ones is back to 0.
  const dragDepth = useRef(0);
  const mark = (event: DragEvent<HTMLElement>, on: boolean) => {
    if (on) event.currentTarget.setAttribute("data-drop-version", "");
    else event.currentTarget.removeAttribute("data-drop-version");
  };
  const drop =
    handlers.onDropFiles && asset.abilities.edit
      ? {
          onDragEnter: (event: DragEvent<HTMLElement>) => {
            if (!hasFiles(event)) return;
            event.preventDefault();
            dragDepth.current += 1;
            mark(event, true);
          },
          onDragOver: (event: DragEvent<HTMLElement>) => {
            if (!hasFiles(event)) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = "copy";
          },
          onDragLeave: (event: DragEvent<HTMLElement>) => {
            dragDepth.current = Math.max(0, dragDepth.current - 1);
            if (dragDepth.current === 0) mark(event, false);
          },
          onDrop: (event: DragEvent<HTMLElement>) => {
            if (!hasFiles(event)) return;
            event.preventDefault();
            dragDepth.current = 0;
            mark(event, false);
            handlers.onDropFiles?.(index, Array.from(event.dataTransfer.files));
          },
        }
      : null;

  return (
    // biome-ignore lint/a11y/useSemanticElements: a cell of the virtualised CSS grid (see AssetGrid)
    <div
      role="gridcell"
      tabIndex={tabbable ? 0 : -1}
      aria-selected={selected}
      aria-label={label}
      aria-describedby={badges.length > 0 ? badgesId : undefined}
      data-index={index}
      data-asset-id={asset.id}
      data-selected={selected || undefined}
      data-testid="asset-card"
      className={classes.card}
      onClick={(event) => handlers.onCardClick(index, event)}
      onDoubleClick={() => handlers.onOpen(index)}
      // Shift-click would otherwise select the page's text between the two cards.
      onMouseDown={(event) => event.shiftKey && event.preventDefault()}
      onFocus={(event: FocusEvent) => {
        menuWanted();
        if (event.target === event.currentTarget) handlers.onFocusCard(index);
      }}
      onPointerEnter={menuWanted}
      onKeyDown={onKeyDown}
      {...drop}
    >
      <div className={classes.caption}>
        <p className={classes.name} title={asset.name} data-testid="asset-card-name">
          {asset.name}
        </p>{" "}
        <p className={classes.meta}>
          {ext} · {size}
          {dimensions ? ` · ${dimensions}` : ""}
        </p>
      </div>
      <div className={classes.thumb}>
        <AssetThumb asset={hasPicture(asset) ? asset : null} fileType={asset.file_type} iconSize={40} lazy={false} />
        <input
          type="checkbox"
          className={classes.check}
          checked={selected}
          tabIndex={-1}
          aria-label={`Select ${asset.name}`}
          onClick={(event) => event.stopPropagation()}
          onDoubleClick={(event) => event.stopPropagation()}
          onChange={() => handlers.onToggle(index)}
        />
        {asset.favorite && <IconStarFilled size={16} className={classes.favorite} aria-label="Favourite" />}
        {renderMenu && (
          <div className={classes.menu} ref={menuSlot}>
            {menuOn ? (
              renderMenu(asset)
            ) : (
              <MenuStandIn
                name={asset.name}
                onWanted={(how) => {
                  handOver.current = how;
                  setMenuOn(true);
                }}
              />
            )}
          </div>
        )}
        {badges.length > 0 && (
          <div className={classes.badges} id={badgesId}>
            <CardBadges asset={asset} chip={chip} badges={badges} />
          </div>
        )}
      </div>
    </div>
  );
});

const stop = (event: SyntheticEvent) => event.stopPropagation();

/**
 * The card menu's button as Mantine's ActionIcon (default variant, sm, radius md) draws it, until the
 * real menu mounts: the same name, popup and test id. Focus or a click hands over to the real one.
 * Its dots are a CSS mask, not the icon's SVG (four elements fewer per card, bench/web).
 */
function MenuStandIn({ name, onWanted }: { name: string; onWanted: (how: "focus" | "click") => void }) {
  return (
    <button
      type="button"
      className={classes.menuButton}
      aria-label={`Actions for ${name}`}
      aria-haspopup="menu"
      aria-expanded={false}
      data-testid="asset-card-menu"
      onClick={(event) => {
        stop(event);
        onWanted("click");
      }}
      onFocus={() => onWanted("focus")}
      onDoubleClick={stop}
      // No focus on press: a hand-over between press and release would turn the click into the card's.
      onMouseDown={(event) => {
        stop(event);
        event.preventDefault();
      }}
      onPointerDown={stop}
      onKeyDown={stop}
    />
  );
}

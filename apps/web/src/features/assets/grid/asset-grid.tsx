import type { Asset } from "@hangar/contract";
import { Button, Center, Skeleton, Text } from "@mantine/core";
import { useElementSize, useMergedRef, useViewportSize } from "@mantine/hooks";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import {
  type KeyboardEvent,
  memo,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { AssetCard, type CardHandlers } from "./asset-card";
import classes from "./asset-grid.module.css";
import { useCardField } from "./card-field";

const MIN_CARD_WIDTH = 170;
const GAP = 16;
/** Name and size lines under the picture. */
const CAPTION_HEIGHT = 56;

export interface GridLayout {
  columns: number;
  cardHeight: number;
}

/** Columns that fit `width` with cards at least MIN_CARD_WIDTH wide; pictures are 4:3. */
export function gridLayout(width: number): GridLayout {
  const columns = Math.max(2, Math.floor((width + GAP) / (MIN_CARD_WIDTH + GAP)));
  const cardWidth = width > 0 ? (width - GAP * (columns - 1)) / columns : MIN_CARD_WIDTH;
  return { columns, cardHeight: Math.round((cardWidth * 3) / 4 + CAPTION_HEIGHT) };
}

/** Memoised: the row of the next page re-renders with every scroll step while it is in view. */
const SkeletonCard = memo(function SkeletonCard() {
  return (
    <div className={classes.skeletonCard} aria-hidden>
      <Skeleton style={{ flex: 1 }} radius="md" />
      <Skeleton height={12} width="70%" />
      <Skeleton height={10} width="40%" />
    </div>
  );
});

/**
 * The next page's row of placeholder cards, as Mantine's Skeletons draw them (the grey over the body
 * colour, pulsing) from two stacked copies of the row: the bases, and the greys pulsing as one layer.
 * Mantine's Skeleton makes each of a row's 18 parts a composited layer with an animation of its own,
 * and a scroll's next row is on screen most of the time (bench/web).
 */
const SkeletonRow = memo(function SkeletonRow({ columns }: { columns: number }) {
  const cards = (part: string | undefined) =>
    Array.from({ length: columns }, (_, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
      <div key={i} className={classes.skeletonCard}>
        <div className={part} data-part="picture" />
        <div className={part} data-part="name" />
        <div className={part} data-part="meta" />
      </div>
    ));
  return (
    <>
      <div className={classes.skeletonLayer} aria-hidden>
        {cards(classes.skeletonBase)}
      </div>
      <div className={`${classes.skeletonLayer} ${classes.skeletonPulse}`} aria-hidden>
        {cards(classes.skeletonTone)}
      </div>
    </>
  );
});

/** The loading state of a grid: rows of placeholder cards in the grid's own layout. */
export function AssetGridSkeleton({ rows = 3 }: { rows?: number }) {
  const { ref, width } = useElementSize();
  const { columns, cardHeight } = gridLayout(width);
  return (
    <div
      ref={ref}
      role="status"
      aria-label="Loading assets"
      data-testid="asset-grid-loading"
      style={{ display: "grid", gridTemplateColumns: `repeat(${columns}, 1fr)`, gap: GAP }}
    >
      {Array.from({ length: rows * columns }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
        <div key={i} style={{ height: cardHeight }}>
          <SkeletonCard />
        </div>
      ))}
    </div>
  );
}

/**
 * The element's content width, kept by a ResizeObserver. Its height is left out: the grid grows with
 * every page of a scroll, and a size hook that also held the height rendered the grid again for each.
 */
function useWidth() {
  const [width, setWidth] = useState(0);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((element: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element) return;
    observer.current = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.current.observe(element);
  }, []);
  return { ref, width };
}

/** The grid's card of an asset, when it is rendered (the grid is virtualised). */
export const cardOf = (assetId: string | null | undefined) =>
  assetId ? document.querySelector<HTMLElement>(`[role="gridcell"][data-asset-id="${CSS.escape(assetId)}"]`) : null;

/**
 * A virtualised grid of asset cards scrolled by the window: only the rows near the viewport are in
 * the DOM, whatever the number of loaded pages. Scrolling near the end asks for the next page.
 * Keyboard: arrows, Home/End move between cards, Enter opens, Space toggles, Ctrl/Cmd-A selects all.
 */
export function AssetGrid({
  assets,
  selectedIds,
  hasMore,
  fetchingMore,
  loadMoreFailed,
  onLoadMore,
  handlers,
  onSelectAll,
  renderMenu,
  dimmed,
}: {
  assets: readonly Asset[];
  selectedIds: ReadonlySet<string>;
  hasMore: boolean;
  fetchingMore: boolean;
  loadMoreFailed: boolean;
  onLoadMore: () => void;
  handlers: CardHandlers;
  onSelectAll: () => void;
  renderMenu?: (asset: Asset) => ReactNode;
  /** Older results shown while new ones load. */
  dimmed?: boolean;
}) {
  const { ref: sizeRef, width } = useWidth();
  const listRef = useRef<HTMLDivElement>(null);
  const ref = useMergedRef(sizeRef, listRef);
  const { columns, cardHeight } = gridLayout(width);
  const rowCount = Math.ceil(assets.length / columns) + (hasMore ? 1 : 0);
  // Read once here, not per card: one subscription, and the cards' props stay equal.
  const cardField = useCardField(assets[0]?.workspace_id ?? "");

  // The window scrolls; the virtualiser needs where the grid starts on the page (the toolbar and chips
  // above it change height).
  // Measured when what sits above can have moved (new results, a resize, the selection bar), never on
  // a scroll's render: reading layout there forced one for every frame (bench/web's profile); nor on
  // a scroll's next page, which moves nothing above (a layout forced at each page's commit).
  const [scrollMargin, setScrollMargin] = useState(0);
  const selecting = selectedIds.size > 0;
  const viewport = useViewportSize();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependencies are the moments to measure
  useLayoutEffect(() => {
    const top = (listRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
    setScrollMargin((old) => (Math.abs(top - old) > 1 ? top : old));
  }, [assets.length > 0, assets[0]?.id, width, viewport.width, viewport.height, dimmed, selecting, loadMoreFailed]);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => cardHeight + GAP,
    overscan: 3,
    scrollMargin,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: rows are re-measured when the card height changes
  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, cardHeight]);

  const rows = virtualizer.getVirtualItems();
  const lastRow = rows.at(-1)?.index ?? -1;
  // The next page is asked for a screenful before the end (a page takes a moment to arrive, and a
  // fast scroll would otherwise stop at the last row and wait for it).
  const ahead = Math.max(2, Math.ceil(viewport.height / (cardHeight + GAP)));
  useEffect(() => {
    if (hasMore && !fetchingMore && !loadMoreFailed && lastRow >= rowCount - ahead) onLoadMore();
  }, [hasMore, fetchingMore, loadMoreFailed, lastRow, rowCount, ahead, onLoadMore]);

  // Roving tabindex: one card is in the tab order; arrows move focus, scrolling the card into view.
  const [focusIndex, setFocusIndex] = useState(0);
  const pendingFocus = useRef<number | null>(null);
  const tabbable = Math.min(focusIndex, Math.max(assets.length - 1, 0));
  useEffect(() => {
    const index = pendingFocus.current;
    if (index === null) return;
    const card = listRef.current?.querySelector<HTMLElement>(`[data-index="${index}"]`);
    if (card) {
      pendingFocus.current = null;
      card.focus({ preventScroll: true });
    }
  });

  const moveFocus = (index: number) => {
    const next = Math.max(0, Math.min(assets.length - 1, index));
    setFocusIndex(next);
    pendingFocus.current = next;
    virtualizer.scrollToIndex(Math.floor(next / columns), { align: "auto" });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (target.getAttribute("role") !== "gridcell") return;
    const index = Number(target.dataset.index);
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "a") {
      event.preventDefault();
      onSelectAll();
      return;
    }
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      ArrowDown: index + columns,
      ArrowUp: index - columns,
      Home: 0,
      End: assets.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    moveFocus(next);
  };

  const focusHandlers: CardHandlers = {
    ...handlers,
    onFocusCard: (index) => {
      setFocusIndex(index);
      handlers.onFocusCard(index);
    },
  };
  const handlersRef = useRef(focusHandlers);
  handlersRef.current = focusHandlers;
  // One stable object for every card (memoised cards), calling the latest handlers.
  const [stableHandlers] = useState<CardHandlers>(() => ({
    onCardClick: (i, e) => handlersRef.current.onCardClick(i, e),
    onOpen: (i) => handlersRef.current.onOpen(i),
    onToggle: (i) => handlersRef.current.onToggle(i),
    onFocusCard: (i) => handlersRef.current.onFocusCard(i),
    // Present whenever the grid is given it (issue 29: a file dropped on a card is its new version).
    ...(handlers.onDropFiles ? { onDropFiles: (i, files) => handlersRef.current.onDropFiles?.(i, files) } : {}),
  }));

  return (
    <div>
      {/* biome-ignore lint/a11y/useSemanticElements: a virtualised CSS grid; table elements would lose their layout */}
      <div
        ref={ref}
        role="grid"
        aria-label="Assets"
        aria-multiselectable
        aria-rowcount={Math.ceil(assets.length / columns)}
        aria-busy={dimmed || fetchingMore}
        data-testid="asset-grid"
        data-selecting={selectedIds.size > 0 || undefined}
        className={classes.grid}
        onKeyDown={onKeyDown}
        style={{
          position: "relative",
          height: virtualizer.getTotalSize(),
          opacity: dimmed ? 0.55 : 1,
          transition: "opacity 120ms ease",
        }}
      >
        {rows.map((row) => {
          const start = row.index * columns;
          const slice = assets.slice(start, start + columns);
          return (
            // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: grid pattern, the cells take focus
            <div
              key={row.key}
              role="row"
              aria-rowindex={row.index + 1}
              style={{
                position: "absolute",
                top: 0,
                left: 0,
                width: "100%",
                height: cardHeight,
                transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
                display: "grid",
                gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
                gap: GAP,
              }}
            >
              {slice.length === 0 ? (
                <SkeletonRow columns={columns} />
              ) : (
                slice.map((asset, i) => (
                  <AssetCard
                    key={asset.id}
                    asset={asset}
                    index={start + i}
                    selected={selectedIds.has(asset.id)}
                    tabbable={start + i === tabbable}
                    handlers={stableHandlers}
                    renderMenu={renderMenu}
                    cardField={cardField}
                  />
                ))
              )}
            </div>
          );
        })}
      </div>
      {loadMoreFailed && (
        <Center py="md" role="alert">
          <Text size="sm" c="red" mr="sm">
            Failed to fetch assets
          </Text>
          <Button size="xs" variant="light" color="red" onClick={onLoadMore}>
            Retry
          </Button>
        </Center>
      )}
    </div>
  );
}

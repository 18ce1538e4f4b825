import type { ListingOrder, Pagination } from "@hangar/contract";
import { Badge, Button, CloseButton, Group, Text, TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { IconAdjustmentsHorizontal, IconArrowsSort, IconChecks, IconForms, IconSearch } from "@tabler/icons-react";
import { memo, useEffect, useRef, useState } from "react";
import { ORDER_OPTIONS, SIMILAR_ORDER_OPTIONS } from "../../../entities/asset";
import { LazySelect as Select } from "../../../lib/lazy-select";
import { useFields } from "../../fields";
import { setCardField, useCardField } from "../grid/card-field";

export const SEARCH_DEBOUNCE_MS = 300;

/** The search box keeps its own text while typing; the URL follows after a pause. */
function SearchBox({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [text, setText] = useState(value);
  const commit = useDebouncedCallback(onChange, SEARCH_DEBOUNCE_MS);
  const commitRef = useRef(commit);
  commitRef.current = commit;
  // Back/forward or a link changes the URL under the box: show it (unless the user is mid-typing).
  useEffect(() => {
    if (!commitRef.current.isPending()) setText(value);
  }, [value]);

  return (
    <TextInput
      type="search"
      aria-label="Search assets"
      placeholder="Search names, tags, descriptions, camera…"
      leftSection={<IconSearch size={16} />}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === "Enter") commit.flush();
        if (event.key === "Escape" && text) {
          event.stopPropagation();
          setText("");
          commit.cancel();
          onChange("");
        }
      }}
      rightSection={
        text ? (
          <CloseButton
            size="sm"
            aria-label="Clear search"
            onClick={() => {
              setText("");
              commit.cancel();
              onChange("");
            }}
          />
        ) : null
      }
      style={{ flex: "1 1 260px", maxWidth: 420 }}
    />
  );
}

function countText(pagination: Pagination | undefined): string | null {
  if (!pagination) return null;
  const n = pagination.total_count;
  const shown = pagination.count_is_estimate ? `About ${n.toLocaleString()}` : n.toLocaleString();
  return `${shown} asset${n === 1 ? "" : "s"}`;
}

/** Memoised: the browser re-renders with every page of a scroll, which changes nothing here. */
export const AssetToolbar = memo(function AssetToolbar({
  search,
  order,
  onSearch,
  onOrder,
  activeFilters,
  onOpenFilters,
  pagination,
  nothingLoaded,
  onSelectAll,
  workspaceId,
  similar = false,
}: {
  /** For the "show a field on cards" choice. */
  workspaceId?: string;
  search: string;
  order: ListingOrder;
  onSearch: (value: string) => void;
  onOrder: (value: ListingOrder) => void;
  activeFilters: number;
  onOpenFilters: () => void;
  pagination: Pagination | undefined;
  nothingLoaded: boolean;
  onSelectAll: () => void;
  /** Filtered by `similar_to`: nearest first is one of the orders (and the default). */
  similar?: boolean;
}) {
  const count = countText(pagination);
  return (
    <Group gap="sm" wrap="wrap" justify="space-between" data-testid="asset-toolbar">
      <Group gap="sm" wrap="wrap" style={{ flex: "1 1 auto" }}>
        <SearchBox value={search} onChange={onSearch} />
        <Select
          aria-label="Sort by"
          data={similar ? SIMILAR_ORDER_OPTIONS : ORDER_OPTIONS}
          value={order}
          onChange={(value) => value && onOrder(value as ListingOrder)}
          allowDeselect={false}
          leftSection={<IconArrowsSort size={16} />}
          w={190}
          comboboxProps={{ withinPortal: true }}
          data-testid="asset-sort"
        />
        <Button
          variant={activeFilters ? "light" : "default"}
          leftSection={<IconAdjustmentsHorizontal size={16} />}
          rightSection={
            activeFilters ? (
              <Badge size="sm" circle variant="filled">
                {activeFilters}
              </Badge>
            ) : null
          }
          onClick={onOpenFilters}
          data-testid="open-filters"
        >
          Filters
        </Button>
      </Group>
      <Group gap="sm" wrap="nowrap">
        {workspaceId && <CardFieldPicker workspaceId={workspaceId} />}
        {count && (
          <Text size="sm" c="dimmed" data-testid="asset-count" style={{ whiteSpace: "nowrap" }}>
            {count}
          </Text>
        )}
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconChecks size={16} />}
          onClick={onSelectAll}
          disabled={nothingLoaded}
        >
          Select all
        </Button>
      </Group>
    </Group>
  );
});

/** Which custom field the cards show as a chip (a per-browser choice), when the workspace has fields. */
function CardFieldPicker({ workspaceId }: { workspaceId: string }) {
  const fields = useFields(workspaceId);
  const chosen = useCardField(workspaceId);
  if (!fields.data?.length) return null;
  return (
    <Select
      size="xs"
      w={150}
      aria-label="Field shown on cards"
      placeholder="Field on cards"
      leftSection={<IconForms size={14} />}
      data={fields.data.map((f) => ({ value: f.id, label: f.title }))}
      value={chosen && fields.data.some((f) => f.id === chosen) ? chosen : null}
      onChange={(v) => setCardField(workspaceId, v)}
      clearable
      comboboxProps={{ withinPortal: true }}
      data-testid="card-field-picker"
    />
  );
}

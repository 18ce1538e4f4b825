import { Button, ColorSwatch, Group, Pill } from "@mantine/core";
import { memo } from "react";
import type { AssetFilters } from "../../../entities/asset";
import { useFields } from "../../fields";
import { usePeopleNames } from "../../people";
import { filterChips, removeChip } from "./filter-chips";

/**
 * One removable chip per active condition, and "Clear filters". Renders nothing without filters.
 * Memoised: the browser re-renders with every page of a scroll.
 */
export const ActiveFilterChips = memo(function ActiveFilterChips({
  workspaceId,
  filters,
  onChange,
}: {
  workspaceId: string;
  filters: AssetFilters;
  onChange: (filters: AssetFilters) => void;
}) {
  const withFields = (filters.custom_fields?.length ?? 0) > 0 || !!filters.or_groups?.some((g) => g.custom_fields);
  // The fields' titles and option labels name their conditions (asked for only when one is set).
  const fields = useFields(withFields ? workspaceId : null);
  // People's names (issue 32), asked for only when a people filter is set.
  const names = usePeopleNames(filters.people ? workspaceId : null);
  const chips = filterChips(filters, fields.data, names);
  if (chips.length === 0) return null;
  return (
    <Group gap={6} wrap="wrap" aria-label="Active filters" role="list" data-testid="filter-chips">
      {chips.map((chip) => (
        <Pill
          key={chip.id}
          role="listitem"
          size="md"
          withRemoveButton
          // Pill hides its remove button from keyboards and readers by default; chips must be removable by both.
          removeButtonProps={{ "aria-label": `Remove filter ${chip.label}`, "aria-hidden": false, tabIndex: 0 }}
          onRemove={() => onChange(removeChip(filters, chip))}
          data-testid="filter-chip"
          styles={{ root: { background: "var(--mantine-color-brand-0)", color: "var(--mantine-color-brand-9)" } }}
        >
          <Group gap={6} wrap="nowrap" component="span">
            {chip.swatch && <ColorSwatch color={chip.swatch} size={12} component="span" />}
            <span>{chip.label}</span>
          </Group>
        </Pill>
      ))}
      <Button variant="subtle" size="compact-sm" color="gray" onClick={() => onChange({})}>
        Clear filters
      </Button>
    </Group>
  );
});

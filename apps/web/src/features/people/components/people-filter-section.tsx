import type { AssetListInput } from "@hangar/contract";
import { MultiSelect, Stack } from "@mantine/core";
import { useMemo } from "react";
import { personName, usePeople } from "../api";

type Draft = Pick<AssetListInput, "people">;

/**
 * The filter builder's People (issue 32): assets showing any of these people, and none of those.
 * The workspace's people are asked for when the section is shown; hidden ones are offered too.
 */
export function PeopleFilterSection({
  workspaceId,
  draft,
  set,
}: {
  workspaceId: string;
  draft: Draft;
  set: (path: (string | number)[], value: unknown) => void;
}) {
  const people = usePeople(workspaceId, true);
  const options = useMemo(() => {
    const list = people.data?.data ?? [];
    const unnamed = list.filter((p) => !p.name).length;
    let n = 0;
    return list.map((p) => ({
      value: p.id,
      // Unnamed people are numbered so two of them can be told apart in the list.
      label: p.name ?? (unnamed > 1 ? `${personName(p)} ${++n}` : personName(p)),
    }));
  }, [people.data]);
  const value = (list: string[] | undefined) => (list ?? []).filter((id) => options.some((o) => o.value === id));
  const disabled = people.data?.enabled === false;
  return (
    <Stack gap="sm">
      <MultiSelect
        label="Shows any of"
        placeholder={disabled ? "Face recognition is off" : "Choose people"}
        data={options}
        value={value(draft.people?.includes)}
        onChange={(v) => set(["people", "includes"], v.length ? v : undefined)}
        searchable
        disabled={disabled}
        nothingFoundMessage="No one by that name"
        data-testid="filter-people-includes"
        comboboxProps={{ withinPortal: true }}
      />
      <MultiSelect
        label="Shows none of"
        placeholder={disabled ? "Face recognition is off" : "Choose people"}
        data={options}
        value={value(draft.people?.excludes)}
        onChange={(v) => set(["people", "excludes"], v.length ? v : undefined)}
        searchable
        disabled={disabled}
        nothingFoundMessage="No one by that name"
        data-testid="filter-people-excludes"
        comboboxProps={{ withinPortal: true }}
      />
    </Stack>
  );
}

/** Person names by id, for the filter chips (asked for only when a people filter is set). */
export function usePeopleNames(workspaceId: string | null): ReadonlyMap<string, string> {
  const people = usePeople(workspaceId, true);
  return useMemo(() => new Map((people.data?.data ?? []).map((p) => [p.id, personName(p)] as const)), [people.data]);
}

import { Group, Stack } from "@mantine/core";
import type { AssetFilters } from "../../../entities/asset";
import { DateField, FileTypeChips, TextListInput, TriState } from "./filter-inputs";

export type SetFilter = (path: (string | number)[], value: unknown) => void;

export interface SectionProps {
  draft: AssetFilters;
  set: SetFilter;
}

export function TypeSection({ draft, set }: SectionProps) {
  return (
    <Stack gap="sm">
      <FileTypeChips
        label="Type is any of"
        value={draft.file_type?.includes}
        onChange={(v) => set(["file_type", "includes"], v)}
        testId="filter-type-includes"
      />
      <FileTypeChips
        label="Type is none of"
        value={draft.file_type?.excludes}
        onChange={(v) => set(["file_type", "excludes"], v)}
        testId="filter-type-excludes"
      />
      <TextListInput
        label="Extension is any of"
        placeholder="jpg, pdf…"
        value={draft.file_extension?.includes}
        onChange={(v) => set(["file_extension", "includes"], v)}
      />
      <TextListInput
        label="Extension is none of"
        placeholder="psd, raw…"
        value={draft.file_extension?.excludes}
        onChange={(v) => set(["file_extension", "excludes"], v)}
      />
    </Stack>
  );
}

export function FavouriteDatesSection({ draft, set }: SectionProps) {
  return (
    <Stack gap="sm">
      <TriState
        label="Favourites (yours)"
        value={draft.favorite}
        onChange={(v) => set(["favorite"], v)}
        yes="Favourites"
        no="Not favourites"
      />
      <TriState
        label="Open comments"
        value={draft.has_open_comments}
        onChange={(v) => set(["has_open_comments"], v)}
        yes="Has open comments"
        no="No open comments"
      />
      <TriState
        label="Versions"
        value={draft.has_versions}
        onChange={(v) => set(["has_versions"], v)}
        yes="Has versions"
        no="One version"
      />
      <Group gap="xs" grow>
        <DateField
          label="Uploaded from"
          value={draft.date_uploaded_from}
          onChange={(v) => set(["date_uploaded_from"], v)}
        />
        <DateField
          label="Uploaded until"
          value={draft.date_uploaded_to}
          onChange={(v) => set(["date_uploaded_to"], v)}
        />
      </Group>
    </Stack>
  );
}

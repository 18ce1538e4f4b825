import { normaliseTags } from "@hangar/contract";

/**
 * The tags dialog's input (spec 01 §5): comma-separated, each trimmed, empties dropped, duplicates
 * ignored (the first spelling wins, any case). The server applies the same rule; this is what the
 * dialog previews and sends.
 */
export function parseTagInput(text: string): string[] {
  return normaliseTags(text.split(","));
}

/** The other way: a list shown in the input. */
export function formatTags(tags: readonly string[]): string {
  return tags.join(", ");
}

/** Tags every list holds (case-insensitive), in the first list's order: what several assets share. */
export function commonTags(lists: ReadonlyArray<readonly string[]>): string[] {
  const [first, ...rest] = lists;
  if (!first) return [];
  const others = rest.map((l) => new Set(l.map((t) => t.toLowerCase())));
  return first.filter((t) => others.every((s) => s.has(t.toLowerCase())));
}

import type { Asset } from "@hangar/contract";
import type { QueryClient } from "@tanstack/react-query";
import { assetKeys } from "../../../entities/asset";

type Known = Pick<Asset, "id" | "name" | "tags" | "size" | "favorite"> &
  Partial<Pick<Asset, "date_uploaded" | "version_count">>;

const isAssetLike = (v: unknown): v is Known =>
  !!v &&
  typeof v === "object" &&
  typeof (v as Known).id === "string" &&
  typeof (v as Known).name === "string" &&
  Array.isArray((v as Known).tags);

/**
 * The assets among `ids` that some cached query already holds (one asset, or a listing page in
 * whatever shape the grid keeps it: arrays, `{data}`, `{pages}`), so dialogs can show names and
 * shared tags without asking the server again.
 */
export function findCachedAssets(
  queryClient: QueryClient,
  workspaceId: string,
  ids: readonly string[],
): Map<string, Known> {
  const wanted = new Set(ids);
  const found = new Map<string, Known>();
  const visit = (value: unknown, depth: number) => {
    if (found.size === wanted.size || depth > 4 || !value || typeof value !== "object") return;
    if (isAssetLike(value)) {
      if (wanted.has(value.id) && !found.has(value.id)) found.set(value.id, value);
      return;
    }
    if (Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else for (const key of ["data", "pages", "assets"]) visit((value as Record<string, unknown>)[key], depth + 1);
  };
  for (const key of [assetKeys.details(workspaceId), assetKeys.lists(workspaceId)]) {
    for (const [, data] of queryClient.getQueriesData({ queryKey: key })) visit(data, 0);
  }
  return found;
}

import { type Asset, type AssetVersion, sharedApi, versionsApi } from "@hangar/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { callApi } from "../../lib/api-client";
import { assetKeys } from "../asset";

/**
 * An asset's versions (issue 29). Their key sits under the asset's own (["asset", ws, id, "versions"]):
 * whatever invalidates the asset's details (an upload finished, a version made current, a comment on
 * it) refreshes its versions too.
 */
export const versionKeys = {
  list: (workspaceId: string, assetId: string) => [...assetKeys.detail(workspaceId, assetId), "versions"] as const,
};

/** `sharedToken`: a share link's visitor asks through the link (its `show_versions` on). */
export function versionsQuery(workspaceId: string, assetId: string, sharedToken: string | null = null) {
  return queryOptions({
    queryKey: sharedToken
      ? [...versionKeys.list(workspaceId, assetId), "shared", sharedToken]
      : versionKeys.list(workspaceId, assetId),
    queryFn: ({ signal }) =>
      sharedToken
        ? callApi(sharedApi.versions, {
            params: { token: sharedToken, assetId },
            signal,
            fallback: "Failed to fetch versions",
          })
        : callApi(versionsApi.list, {
            params: { id: workspaceId, assetId },
            signal,
            fallback: "Failed to fetch versions",
          }),
  });
}

/** Every version of the asset, newest first (only while `enabled`). */
export function useVersions(
  workspaceId: string,
  assetId: string | null,
  enabled = true,
  sharedToken: string | null = null,
) {
  return useQuery({ ...versionsQuery(workspaceId, assetId ?? "", sharedToken), enabled: enabled && !!assetId });
}

/** "v3". */
export const versionLabel = (number: number) => `v${number}`;

/** The media and facts a version brings; the rest of the asset (name, boards, tags, fields…) is the asset's. */
const VERSION_FIELDS = [
  "status",
  "error",
  "file_type",
  "file_extension",
  "mime_type",
  "size",
  "sha256",
  "width",
  "height",
  "duration",
  "page_count",
  "url",
  "thumbnail_url",
  "grid_url",
  "large_url",
  "video_url",
  "fps",
  "sprite",
  "placeholder",
  "pages",
  "preview_unavailable",
] as const satisfies readonly (keyof Asset & keyof AssetVersion)[];

/**
 * The asset as one of its versions shows it: that version's media and facts under the asset's
 * identity (its id, so comments and links stay the asset's). The current version is the asset itself.
 */
export function versionView(asset: Asset, version: AssetVersion | null | undefined): Asset {
  if (!version || version.id === asset.current_version?.id) return asset;
  const view: Record<string, unknown> = { ...asset, current_version: asset.current_version };
  for (const key of VERSION_FIELDS) view[key] = version[key];
  return view as Asset;
}

/** The version shown for `?version=N`: that number when the asset has it, else the current one. */
export function versionByNumber(versions: readonly AssetVersion[] | undefined, number: number | null) {
  if (!versions) return undefined;
  return (
    (number !== null ? versions.find((v) => v.number === number) : undefined) ?? versions.find((v) => v.is_current)
  );
}

/**
 * The viewer's address carries the version shown (`?version=2`) and, while comparing, the other one
 * (`&compare=1`). They belong to one asset: stepping to another asset or back to the grid drops them.
 */
export const VERSION_PARAM = { version: "version", compare: "compare" } as const;

/** `search` without the viewer's version parameters ("" or "?…"). */
export function withoutVersionParams(search: string): string {
  const params = new URLSearchParams(search);
  params.delete(VERSION_PARAM.version);
  params.delete(VERSION_PARAM.compare);
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}

import type { Asset, AssetVersion } from "@hangar/contract";
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import { useVersions, VERSION_PARAM, versionByNumber, versionView } from "../../../entities/version";

const numberParam = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

export interface ShownVersion {
  /** The asset as the shown version makes it (undefined while that version is being fetched). */
  shown: Asset | undefined;
  /** The shown version (undefined until the versions are known; the asset is then its current one). */
  version: AssetVersion | undefined;
  versions: AssetVersion[] | undefined;
  versionsQuery: ReturnType<typeof useVersions>;
  /** The other version while comparing (`&compare=N`). */
  compareWith: AssetVersion | undefined;
  /** null: the current one. */
  show(number: number | null): void;
  compare(number: number | null): void;
}

/**
 * Which version of the asset the viewer shows (issue 29): `?version=N`, else the current one. The
 * versions are fetched when the asset has more than one, or when the address names one; a version
 * that is gone falls back to the current one. Switching replaces the address (Back still closes).
 */
export function useShownVersion(
  workspaceId: string,
  asset: Asset | undefined,
  enabled: boolean,
  sharedToken: string | null = null,
): ShownVersion {
  const [params, setParams] = useSearchParams();
  const wanted = numberParam(params.get(VERSION_PARAM.version));
  const comparing = numberParam(params.get(VERSION_PARAM.compare));
  const needed = enabled && !!asset && ((asset.version_count ?? 1) > 1 || wanted !== null || comparing !== null);
  const versionsQuery = useVersions(workspaceId, asset?.id ?? null, needed, sharedToken);
  const versions = versionsQuery.data;
  const currentNumber = asset?.current_version?.number ?? null;
  const version = versionByNumber(versions, wanted);
  // Another version asked for: the preview waits for the list (unless versions are not for this viewer).
  const waiting = needed && wanted !== null && wanted !== currentNumber && !versions && !versionsQuery.isError;
  const shown = useMemo(() => (asset && !waiting ? versionView(asset, version) : undefined), [asset, version, waiting]);
  const compareWith = comparing !== null ? versions?.find((v) => v.number === comparing) : undefined;

  const set = useCallback(
    (key: string, value: number | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value === null) next.delete(key);
          else next.set(key, String(value));
          return next;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );
  const show = useCallback((n: number | null) => set(VERSION_PARAM.version, n), [set]);
  const compare = useCallback((n: number | null) => set(VERSION_PARAM.compare, n), [set]);
  return { shown, version, versions, versionsQuery, compareWith, show, compare };
}

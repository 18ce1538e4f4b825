import type { Asset, FileType } from "@hangar/contract";
import { type Icon, IconFile, IconFileText, IconFileZip, IconMovie, IconMusic, IconPhoto } from "@tabler/icons-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { thumbHashToAverageRGBA, thumbHashToDataURL } from "thumbhash";

const TYPE_ICONS: Record<FileType, Icon> = {
  IMAGE: IconPhoto,
  VIDEO: IconMovie,
  AUDIO: IconMusic,
  DOCUMENT: IconFileText,
  ARCHIVE: IconFileZip,
  OTHER: IconFile,
};

/** A best guess from the browser's MIME type, until the server has sniffed the real one. */
export function fileTypeOf(mime: string): FileType {
  if (mime.startsWith("image/")) return "IMAGE";
  if (mime.startsWith("video/")) return "VIDEO";
  if (mime.startsWith("audio/")) return "AUDIO";
  if (/zip|tar|rar|7z|gzip|compressed/.test(mime)) return "ARCHIVE";
  if (/pdf|msword|officedocument|opendocument|text\/|rtf|presentation|spreadsheet/.test(mime)) return "DOCUMENT";
  return "OTHER";
}

const hashBytes = (hash: string) => Uint8Array.from(atob(hash), (c) => c.charCodeAt(0));

/** The placeholder's average colour: a few operations, where the blurred picture is a PNG to encode. */
function averageColor(hash: string | null | undefined): string | null {
  if (!hash) return null;
  try {
    const { r, g, b } = thumbHashToAverageRGBA(hashBytes(hash));
    return `rgb(${Math.round(r * 255)} ${Math.round(g * 255)} ${Math.round(b * 255)})`;
  } catch {
    return null;
  }
}

/** Decoded placeholders, newest last: cards scrolled back into view (or shown again) skip the PNG encoding. */
const placeholders = new Map<string, string | null>();
const PLACEHOLDERS_KEPT = 2000;

export function placeholderUrl(hash: string | null | undefined): string | null {
  if (!hash) return null;
  const known = placeholders.get(hash);
  if (known !== undefined) return known;
  let url: string | null = null;
  try {
    url = thumbHashToDataURL(hashBytes(hash));
  } catch {
    url = null;
  }
  if (placeholders.size >= PLACEHOLDERS_KEPT) placeholders.delete(placeholders.keys().next().value as string);
  placeholders.set(hash, url);
  return url;
}

/** A picture here this soon after its card appeared shows without the fade. */
const QUICK_MS = 150;

const iconBox = {
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  width: "100%",
  height: "100%",
  background: "var(--mantine-color-gray-1)",
  color: "var(--mantine-color-gray-6)",
} as const;

/**
 * The asset's grid rendition over its thumbhash placeholder (which shows while the image loads), or
 * a file-type icon for files without a picture. Fills its parent; `iconSize` scales the icon. A
 * document's page render is cropped from its top (its title and first lines say more than its
 * middle), in every grid that shows it: the members' and a share link's (issue 35).
 */
export function AssetThumb({
  asset,
  fileType,
  iconSize = 20,
  lazy = true,
}: {
  asset: Asset | null;
  /** Used when there is no asset yet (still uploading or processing). */
  fileType: FileType;
  iconSize?: number;
  /**
   * Load the picture when it nears the viewport (the default). A virtualised list whose items are all
   * near it asks for eager loading: the picture is then requested as the item mounts, not a frame later
   * by the browser's lazy-loading observer, and more pictures arrive soon enough to show without a fade.
   */
  lazy?: boolean;
}) {
  const src = asset ? (asset.grid_url ?? asset.thumbnail_url) : null;
  const position = asset && asset.file_type !== "IMAGE" && asset.file_type !== "VIDEO" ? "top" : "center";
  const hash = asset?.placeholder;
  // The card shows the picture's average colour at once, and its blurred placeholder when the browser
  // is idle and the picture has not arrived: a fast scroll mounts dozens of cards a second, and
  // encoding each one's placeholder on mount made frames miss (bench/web).
  const average = useMemo(() => averageColor(hash), [hash]);
  const [placeholder, setPlaceholder] = useState<string | null>(() => (hash ? (placeholders.get(hash) ?? null) : null));
  // Whether the picture has arrived: the image shows itself (a style write), no render of the card.
  const loaded = useRef(false);
  const shownAt = useRef(0);
  if (!shownAt.current) shownAt.current = performance.now();
  useEffect(() => {
    if (!hash || placeholder) return;
    const make = () => {
      if (!loaded.current) setPlaceholder(placeholderUrl(hash));
    };
    if (typeof requestIdleCallback !== "function") {
      const t = setTimeout(make, 50);
      return () => clearTimeout(t);
    }
    const id = requestIdleCallback(make, { timeout: 400 });
    return () => cancelIdleCallback(id);
  }, [hash, placeholder]);
  const [broken, setBroken] = useState(false);

  if (!src || broken) {
    const TypeIcon = TYPE_ICONS[asset?.file_type ?? fileType];
    return (
      <div style={iconBox} aria-hidden>
        <TypeIcon size={iconSize} stroke={1.5} />
      </div>
    );
  }
  return (
    <div
      // Plain elements (no Mantine Box): a scrolled grid mounts a dozen of these a frame.
      style={{
        width: "100%",
        height: "100%",
        backgroundColor: average ?? "var(--mantine-color-gray-1)",
        backgroundImage: placeholder ? `url(${placeholder})` : undefined,
        backgroundSize: "cover",
        backgroundPosition: position,
      }}
    >
      <img
        src={src}
        alt=""
        loading={lazy ? "lazy" : "eager"}
        decoding="async"
        onLoad={(event) => {
          loaded.current = true;
          const img = event.currentTarget;
          // A picture that took a while fades in over its placeholder; one that came at once just
          // shows. Each fade is an animation Chromium composites on a layer of its own (the picture
          // rastered twice), and a fast scroll brings a dozen pictures a frame (bench/web).
          if (performance.now() - shownAt.current < QUICK_MS) img.style.transition = "none";
          img.style.opacity = "1";
        }}
        onError={() => setBroken(true)}
        style={{
          display: "block",
          width: "100%",
          height: "100%",
          objectFit: "cover",
          objectPosition: position,
          opacity: 0,
          transition: "opacity 160ms ease",
        }}
      />
    </div>
  );
}

/**
 * Whether the pipeline hashes a picture of this asset (issue 32: an image, a document's first page, a
 * video's frames), so "Find similar" can find anything.
 */
export const hasPicture = (asset: Pick<Asset, "file_type">) =>
  asset.file_type === "IMAGE" || asset.file_type === "DOCUMENT" || asset.file_type === "VIDEO";

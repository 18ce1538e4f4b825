import { once } from "node:events";
import type { Readable } from "node:stream";
import { nameWithExtension } from "@hangar/contract";
import { ZipArchive } from "archiver";
import type { BoardNode, DownloadableAsset } from "./repo.ts";

export type ZipEntry =
  | { kind: "dir"; name: string }
  | { kind: "file"; name: string; asset: DownloadableAsset; store: boolean }
  /** A text written into the zip (which assets were left out, and why). */
  | { kind: "note"; name: string; text: string };

const MAX_SEGMENT = 200;

/**
 * One path segment, safe to extract anywhere: no separators (a name's "/" or "\" must never become
 * a folder, let alone `..`), no control characters or NUL, no bidi overrides that disguise an
 * extension, none of Windows' reserved characters, no leading or trailing dots and spaces. Unicode
 * letters are kept (NFC, so macOS and Linux agree on the bytes).
 */
export function sanitizeSegment(raw: string): string {
  const s = raw
    .normalize("NFC")
    .replace(/\p{Cc}/gu, "")
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/[/\\<>:"|?*]/g, "_")
    .replace(/\.{2,}/g, ".")
    .replace(/^[\s.]+|[\s.]+$/gu, "");
  if (!s) return "untitled";
  const chars = [...s];
  if (chars.length <= MAX_SEGMENT) return renameReserved(s);
  const { stem, ext } = splitExt(s);
  return renameReserved([...stem].slice(0, MAX_SEGMENT - [...ext].length).join("") + ext);
}

/**
 * Windows will not create a file or folder named CON, PRN, AUX, NUL, COM1–9 or LPT1–9 (in any case,
 * with any extension, superscript digits included): extracting such an entry fails or writes to a
 * device. An underscore after the stem keeps the name recognisable and the extension intact.
 */
const RESERVED = /^(con|prn|aux|nul|com[1-9\u00b9\u00b2\u00b3]|lpt[1-9\u00b9\u00b2\u00b3])(\.|$)/i;
function renameReserved(name: string): string {
  const m = RESERVED.exec(name);
  return m?.[1] ? `${m[1]}_${name.slice(m[1].length)}` : name;
}

function splitExt(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf(".");
  // A short, plain suffix only: "v1.2 final" is a stem, not an extension.
  if (dot > 0 && /^\.[\p{L}\p{N}]{1,10}$/u.test(name.slice(dot)))
    return { stem: name.slice(0, dot), ext: name.slice(dot) };
  return { stem: name, ext: "" };
}

/** The asset's name with its extension (as the media route names the original), sanitised. */
export function fileNameOf(a: Pick<DownloadableAsset, "name" | "file_extension">): string {
  const named = nameWithExtension(a.name, a.file_extension.replace(/[^\p{L}\p{N}]/gu, ""));
  return sanitizeSegment(named);
}

/**
 * The names already given in one folder. Compared case-insensitively: on Windows and macOS
 * "A.jpg" and "a.jpg" would overwrite each other on extraction.
 */
class Folder {
  private used = new Set<string>();
  /** `name`, or `stem (2).ext`, `stem (3).ext`… for the first one free. */
  claim(name: string, isFolder = false): string {
    const { stem, ext } = isFolder ? { stem: name, ext: "" } : splitExt(name);
    let candidate = name;
    for (let n = 2; this.used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    this.used.add(candidate.toLowerCase());
    return candidate;
  }
}

/** Already-compressed formats: deflating them costs CPU and saves nothing, so they are stored. */
const STORED_EXTENSIONS = new Set(
  (
    "jpg jpeg jpe png gif webp avif heic heif jxl mp4 m4v mov qt webm mkv avi wmv flv 3gp mpg mpeg " +
    "mp3 m4a aac ogg oga opus flac wma zip gz tgz bz2 xz zst 7z rar pdf docx xlsx pptx odt ods odp epub woff woff2"
  ).split(" "),
);
const STORED_MIME =
  /^(video\/|audio\/(?!wav|x-wav|aiff)|image\/(jpeg|png|gif|webp|avif|heic|heif)|application\/(zip|pdf|gzip))/;

export function shouldStore(a: Pick<DownloadableAsset, "file_extension" | "mime_type">): boolean {
  return STORED_EXTENSIONS.has(a.file_extension.toLowerCase()) || STORED_MIME.test(a.mime_type);
}

/**
 * What goes in the zip, in order. Kept structure: `rootAssets` at the root, each board a folder
 * under its parent (the selected board itself is the root when `boardAtRoot`), an asset in several
 * boards in each of their folders. Flattened: every asset once, at the root.
 */
export function planZip(input: {
  rootAssets: DownloadableAsset[];
  nodes: BoardNode[];
  assetsOf: (boardId: string) => DownloadableAsset[];
  boardAtRoot: boolean;
  flatten: boolean;
}): ZipEntry[] {
  const entries: ZipEntry[] = [];
  const folders = new Map<string, Folder>([["", new Folder()]]);
  const folder = (path: string) => folders.get(path) ?? folders.set(path, new Folder()).get(path)!;
  const seen = new Set<string>();
  const addFiles = (path: string, assets: DownloadableAsset[]) => {
    for (const asset of assets) {
      if (input.flatten) {
        if (seen.has(asset.id)) continue;
        seen.add(asset.id);
      }
      const name = folder(path).claim(fileNameOf(asset));
      entries.push({ kind: "file", name: path ? `${path}/${name}` : name, asset, store: shouldStore(asset) });
    }
  };

  addFiles("", input.rootAssets);
  const pathOf = new Map<string, string>();
  for (const node of input.nodes) {
    let path = "";
    if (!input.flatten && !(input.boardAtRoot && node.parent_key === null)) {
      const parent = node.parent_key === null ? "" : (pathOf.get(node.parent_key) ?? "");
      const name = folder(parent).claim(sanitizeSegment(node.name), true);
      path = parent ? `${parent}/${name}` : name;
      entries.push({ kind: "dir", name: `${path}/` });
    }
    pathOf.set(node.key, path);
    addFiles(path, input.assetsOf(node.id));
  }
  return entries;
}

/**
 * Streams `entries` as a zip. Memory stays flat whatever the total: originals are opened one at a
 * time, and the next is opened only once the previous entry is written; the archive is a stream
 * whose reader (the HTTP response) sets the pace, so a slow client pauses the disk reads.
 * `open` answers null for a blob that has gone (the entry is skipped, the zip stays valid).
 */
export function zipStream(
  entries: ZipEntry[],
  open: (asset: DownloadableAsset) => Promise<Readable | null>,
  onError: (err: Error) => void,
): Readable {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const stop = new AbortController();
  let current: Readable | null = null;
  // The response closed early (client gone) or the archive failed: stop reading originals.
  archive.once("close", () => {
    stop.abort();
    current?.destroy();
  });
  archive.on("error", (err: Error) => {
    stop.abort();
    current?.destroy();
    onError(err);
  });

  const pump = async () => {
    for (const e of entries) {
      if (stop.signal.aborted) return;
      current = e.kind === "file" ? await open(e.asset) : null;
      if (stop.signal.aborted || (e.kind === "file" && !current)) {
        current?.destroy();
        continue;
      }
      // Each entry is waited for (directories too), so "entry" always belongs to this one.
      const written = once(archive, "entry", { signal: stop.signal });
      if (e.kind === "note") archive.append(e.text, { name: e.name, store: true });
      else archive.append(current, e.kind === "file" ? { name: e.name, store: e.store } : { name: e.name });
      await written;
      current = null;
    }
    if (!stop.signal.aborted) await archive.finalize();
  };
  pump().catch((err: Error) => {
    if (stop.signal.aborted) return;
    onError(err);
    archive.destroy(err);
  });
  return archive;
}

/**
 * Turning what the user picked or dropped into files with relative paths. A file with a path
 * ("Shoot/day1/a.jpg") belongs to a folder upload; a file without one is uploaded on its own.
 */
export interface PickedFile {
  file: File;
  /** The path inside the dropped or selected folder, folder name first; null for a loose file. */
  path: string | null;
}

/** The folder part of webkitRelativePath (set by <input webkitdirectory>), or null. */
function relativePathOf(file: File): string | null {
  const path = file.webkitRelativePath;
  return path?.includes("/") ? path : null;
}

export function fromFileList(list: FileList | readonly File[] | null): PickedFile[] {
  return Array.from(list ?? [], (file) => ({ file, path: relativePathOf(file) }));
}

// Minimal typings of the File and Directory Entries API (only webkitGetAsEntry is in lib.dom).
const isFile = (entry: FileSystemEntry): entry is FileSystemFileEntry => entry.isFile;
const isDirectory = (entry: FileSystemEntry): entry is FileSystemDirectoryEntry => entry.isDirectory;

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** readEntries answers at most 100 entries a call: ask until it answers none. */
async function readAll(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const out: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return out;
    out.push(...batch);
  }
}

/** Skipped when walking folders: OS metadata nobody means to upload. */
const JUNK = new Set([".DS_Store", "Thumbs.db", "desktop.ini"]);

async function walk(entry: FileSystemEntry, out: PickedFile[]): Promise<void> {
  if (JUNK.has(entry.name)) return;
  if (isFile(entry)) {
    const file = await fileOf(entry);
    const path = entry.fullPath.replace(/^\/+/, "");
    out.push({ file, path: path.includes("/") ? path : null });
  } else if (isDirectory(entry)) {
    for (const child of await readAll(entry)) await walk(child, out);
  }
}

/**
 * The files of a drop, folders walked recursively. Entries must be taken synchronously inside the
 * drop handler (the DataTransfer is emptied afterwards), so call this before any await.
 * Items without an entry (synthetic transfers, older browsers) fall back to the plain File, whose
 * webkitRelativePath is used when present.
 */
export function filesFromDrop(transfer: DataTransfer): Promise<PickedFile[]> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(transfer.items ?? [])) {
    if (item.kind !== "file") continue;
    const entry = typeof item.webkitGetAsEntry === "function" ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  if (entries.length === 0 && loose.length === 0) loose.push(...Array.from(transfer.files ?? []));
  return (async () => {
    const out = fromFileList(loose);
    for (const entry of entries) await walk(entry, out);
    return out;
  })();
}

/** True when a drag carries files (not text or a link dragged from the page). */
export const dragHasFiles = (transfer: DataTransfer | null) =>
  !!transfer && Array.from(transfer.types).includes("Files");

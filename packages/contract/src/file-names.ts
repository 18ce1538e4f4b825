/** Extensions that name the same type: a file already ending in one keeps its name. */
const EQUIVALENT: string[][] = [
  ["jpg", "jpeg", "jpe", "jfif"],
  ["tif", "tiff"],
  ["htm", "html"],
  ["mpg", "mpeg"],
  ["heic", "heif"],
  ["yml", "yaml"],
  ["mid", "midi"],
  ["aif", "aiff"],
];
const SAME = new Map<string, Set<string>>();
for (const group of EQUIVALENT) for (const ext of group) SAME.set(ext, new Set(group));

/**
 * The name a download is saved under: the asset's name plus its type's extension, unless the name
 * already ends in that extension or an equivalent one, in any case ("j5-board.jpeg" stays, not
 * "j5-board.jpeg.jpg"; "scan.TIFF" stays for tif). Double extensions are judged by the last one.
 */
export function nameWithExtension(name: string, extension: string | null | undefined): string {
  const ext = (extension ?? "").toLowerCase().replace(/^\./, "");
  if (!ext) return name;
  const dot = name.lastIndexOf(".");
  const current = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  if (current === ext || (current && SAME.get(ext)?.has(current))) return name;
  return `${name}.${ext}`;
}

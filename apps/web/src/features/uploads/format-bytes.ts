const UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/** Sizes in 1024 units from B to TB with 2 decimals (spec 02 §9): 0 B, 512 B, 1.50 KB, 12.00 MB. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 B";
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  if (exponent === 0) return `${bytes} B`;
  return `${(bytes / 1024 ** exponent).toFixed(2)} ${UNITS[exponent]}`;
}

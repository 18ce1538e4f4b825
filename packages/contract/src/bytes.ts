/** The units sizes are shown in, 1024 apart. */
const BYTE_UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/**
 * A size as every screen and every message shows it (spec 02 §9: 1024 units from B to TB with 2
 * decimals): "0 B", "512 B", "1.50 KB", "2.00 GB", "5120.00 TB". The one byte formatter of the
 * product, so the same number of bytes reads the same wherever it appears.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 B";
  let value = bytes;
  let unit = 0;
  // 1023.996 KB would round to "1024.00 KB": it is "1.00 MB".
  while (value >= 1023.995 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(2)} ${BYTE_UNITS[unit]}`;
}

import type { Severity } from "@hangar/contract";

/** How each severity looks: a Mantine colour and its label. */
export const SEVERITY_STYLE: Record<Severity, { color: string; label: string }> = {
  high: { color: "red", label: "High" },
  medium: { color: "orange", label: "Medium" },
  low: { color: "yellow", label: "Low" },
  positive: { color: "teal", label: "Positive" },
  none: { color: "blue", label: "No severity" },
};

import type { FileRequest } from "@hangar/contract";

/** What a request's state is, in one word, for its badge. */
export function requestState(r: FileRequest): { label: string; color: string } {
  if (!r.is_active) return { label: "Disabled", color: "gray" };
  if (r.expires_at && Date.parse(r.expires_at) <= Date.now()) return { label: "Expired", color: "orange" };
  if (r.files_received >= r.max_files) return { label: "Full", color: "yellow" };
  return { label: "Open", color: "green" };
}

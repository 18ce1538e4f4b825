import { SHARE_MESSAGES } from "@hangar/contract";
import { notifyError, notifySuccess } from "../../lib/notify";

/** The public address of a link: the current origin plus /s/{token} (spec 02 §2). */
export const publicLink = (link: { path: string }) => `${window.location.origin}${link.path}`;

/** Copies the link (spec 02 §8: "Link copied to clipboard" / "Failed to copy link"). */
export async function copyLink(url: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(url);
    notifySuccess(SHARE_MESSAGES.copied);
    return true;
  } catch {
    notifyError(SHARE_MESSAGES.copyFailed);
    return false;
  }
}

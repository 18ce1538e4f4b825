import { notifyError, notifySuccess } from "./notify";

/** Copies `text`, with a toast either way ("<what> copied to clipboard"); true when it landed there. */
export async function copyText(text: string, what: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    notifySuccess(`${what} copied to clipboard`);
    return true;
  } catch {
    notifyError(`Failed to copy the ${what.toLowerCase()}: select it and copy it by hand`);
    return false;
  }
}

// Whose upload list this tab holds. A leaf, so the page's first load does not fetch the upload runner
// (it arrives with the first upload); the runner registers how to stop everything when it loads.

let owner: string | null = null;
let stopAll: (() => void) | null = null;

/** The list belongs to the signed-in user: another one signing in in this tab starts from nothing. */
export function claimUploadsFor(userId: string): void {
  if (owner !== null && owner !== userId) stopAll?.();
  owner = userId;
}

/** Called once by the upload runner as it loads. */
export function whenOwnerChanges(stop: () => void): void {
  stopAll = stop;
}

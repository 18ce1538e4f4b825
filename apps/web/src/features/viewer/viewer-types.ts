import type { Asset } from "@hangar/contract";

/** A document page as the viewer uses it (a sharper page render may come with it later). */
export type ViewerPage = Asset["pages"][number] & { large_url?: string | null };

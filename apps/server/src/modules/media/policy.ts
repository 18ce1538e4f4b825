import { ASSET } from "../assets/index.ts";

/**
 * Fetching a rendition is looking at the asset; fetching the original is downloading it (a share
 * link hands it out only with allow_downloads). The assets' own actions, so what an answer's
 * abilities promise and what /media serves cannot drift apart.
 */
export const MEDIA = {
  rendition: ASSET.view,
  original: ASSET.download,
  /** A version's media when it is not the asset's current one (issue 29): a link needs show_versions. */
  otherVersion: ASSET.versions,
};

import { ASSET } from "../assets/index.ts";

/**
 * Fetching a rendition is looking at the asset; fetching the original is downloading it (a share
 * link hands it out only with allow_downloads). The assets' own actions, so what an answer's
 * abilities promise and what /media serves cannot drift apart.
 */
export const MEDIA = {
  rendition: ASSET.view,
  original: ASSET.download,
};

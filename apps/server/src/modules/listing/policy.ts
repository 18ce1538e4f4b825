import { ASSET } from "../assets/index.ts";

/**
 * A listing is a look at assets, so its actions are the assets' own (one rule, and the abilities each
 * listed asset carries come from the same grant): a member of any role lists the workspace's assets;
 * a share-link visitor lists one board inside what their link shares.
 */
export const LISTING = {
  workspace: ASSET.list,
  board: ASSET.view,
};

import type { Migration, MigrationProvider } from "kysely";
import * as m0001 from "./20261121-0001-foundation.ts";
import * as m0002 from "./20261121-0002-boards-assets.ts";
import * as m0003 from "./20261121-0003-uploads-media.ts";
import * as m0004 from "./20261121-0004-asset-library.ts";
import * as m0005 from "./20261121-0005-listing.ts";
import * as m0006 from "./20261121-0006-listing-scale.ts";
import * as m0007 from "./20261121-0007-listing-tag-arrays.ts";
import * as m0008 from "./20261121-0008-listing-name-sort.ts";
import * as m0009 from "./20261121-0009-cache-notify.ts";
import * as m0010 from "./20261121-0010-listing-gps.ts";
import * as m0011 from "./20261121-0011-listing-tag-statistics.ts";
import * as m0012 from "./20261124-0001-comments.ts";
import * as m0013 from "./20261124-0002-custom-fields.ts";
import * as m0014 from "./20261124-0003-field-search.ts";
import * as m0015 from "./20261124-0004-share-links.ts";
import * as m0016 from "./20261125-0001-share-activity.ts";
import * as m0017 from "./20261125-0010-ai-actions.ts";
import * as m0018 from "./20261125-0020-billing.ts";
import * as m0019 from "./20261126-0001-file-requests.ts";
import * as m0020 from "./20261126-0100-listing-correlation.ts";
import * as m0021 from "./20261127-0001-listing-workspace-stats.ts";
import * as m0022 from "./20261127-0002-text-pending.ts";
import * as m0023 from "./20261127-1001-listing-facets.ts";
import * as m0024 from "./20261128-0101-share-links-cache.ts";
import * as m0025 from "./20261128-0301-rate-limit-take.ts";
import * as m0026 from "./20261128-0302-live-member-removed.ts";
import * as m0027 from "./20261129-0001-asset-versions.ts";
import * as m0028 from "./20261129-0002-share-links-versions.ts";
import * as m0029 from "./20261130-0001-reviews.ts";
import * as m0030 from "./20261201-0001-comment-drawings.ts";
import * as m0031 from "./20261201-2901-version-status-events.ts";
import * as m0032 from "./20261202-3201-similar.ts";
import * as m0033 from "./20261202-3202-similar-pairs.ts";
import * as m3601 from "./20261203-3601-api-keys.ts";
import * as m3203 from "./20261206-3203-faces.ts";
import * as m3205 from "./20261206-3205-similar-scale.ts";
import * as m3602 from "./20261206-3602-webhooks.ts";
import * as m3603 from "./20261206-3603-audit.ts";
import * as m3301 from "./20261207-3301-smart-boards.ts";
import * as m3302 from "./20261207-3302-rights.ts";
import * as m3303 from "./20261207-3303-watermarks.ts";
import * as m3604 from "./20261207-3604-sso.ts";
import * as m3605 from "./20261207-3605-personal-tokens.ts";

/** Static list: timestamped names, applied in order. Add new migrations at the end. */
const migrations: Record<string, Migration> = {
  "20261121-0001-foundation": m0001,
  "20261121-0002-boards-assets": m0002,
  "20261121-0003-uploads-media": m0003,
  "20261121-0004-asset-library": m0004,
  "20261121-0005-listing": m0005,
  "20261121-0006-listing-scale": m0006,
  "20261121-0007-listing-tag-arrays": m0007,
  "20261121-0008-listing-name-sort": m0008,
  "20261121-0009-cache-notify": m0009,
  "20261121-0010-listing-gps": m0010,
  "20261121-0011-listing-tag-statistics": m0011,
  "20261124-0001-comments": m0012,
  "20261124-0002-custom-fields": m0013,
  "20261124-0003-field-search": m0014,
  "20261124-0004-share-links": m0015,
  "20261125-0001-share-activity": m0016,
  "20261125-0010-ai-actions": m0017,
  "20261125-0020-billing": m0018,
  "20261126-0001-file-requests": m0019,
  "20261126-0100-listing-correlation": m0020,
  "20261127-0001-listing-workspace-stats": m0021,
  "20261127-0002-text-pending": m0022,
  "20261127-1001-listing-facets": m0023,
  "20261128-0101-share-links-cache": m0024,
  "20261128-0301-rate-limit-take": m0025,
  "20261128-0302-live-member-removed": m0026,
  "20261129-0001-asset-versions": m0027,
  "20261129-0002-share-links-versions": m0028,
  "20261130-0001-reviews": m0029,
  "20261201-0001-comment-drawings": m0030,
  "20261201-2901-version-status-events": m0031,
  "20261202-3201-similar": m0032,
  "20261202-3202-similar-pairs": m0033,
  "20261203-3601-api-keys": m3601,
  "20261206-3203-faces": m3203,
  "20261206-3205-similar-scale": m3205,
  "20261206-3602-webhooks": m3602,
  "20261206-3603-audit": m3603,
  "20261207-3301-smart-boards": m3301,
  "20261207-3302-rights": m3302,
  "20261207-3303-watermarks": m3303,
  "20261207-3604-sso": m3604,
  "20261207-3605-personal-tokens": m3605,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

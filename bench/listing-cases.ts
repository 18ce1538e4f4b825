import type { AssetListInput } from "@hangar/contract";

/** bench/listing's ten representative filtered listings and the deep page, on its seeded workspace. */
export const LISTING_CASES: Array<[string, AssetListInput]> = [
  ["all, -date_uploaded", {}],
  ["file_type IMAGE", { file_type: { includes: ["IMAGE"] } }],
  ["search 'sunset'", { search: "sunset" }],
  ["tags includes 1 tag", { tags: { includes: ["tag7"] } }],
  ["favorite (1k of caller)", { favorite: true }],
  ["color_search #ff0000", { colors: { color_search: "#ff0000" } }],
  ["camera Canon, iso ≥ 800", { exif: { camera: { camera_makes: ["Canon"] }, technical: { iso_min: 800 } } }],
  ["uploaded in one month", { date_uploaded_from: "2025-03-01", date_uploaded_to: "2025-03-31" }],
  ["or_groups VIDEO | tag", { or_groups: [{ file_type: { includes: ["VIDEO"] } }, { tags: { any_of: ["tag3"] } }] }],
  ["jpg by name", { file_extension: { includes: ["jpg"] }, order_by: "name" }],
  // Beyond the ten: most tags of a real library are rare (here 100 of 1,000,000 assets).
  ["tags includes a rare tag", { tags: { includes: ["rare"] } }],
  // Location: a box with no asset in it, and a box of a continent (a few thousand).
  [
    "GPS box, no match",
    { exif: { location: { latitude_min: 10, latitude_max: 10.5, longitude_min: 20, longitude_max: 20.5 } } },
  ],
  [
    "GPS box, Europe",
    { exif: { location: { latitude_min: 30, latitude_max: 50, longitude_min: -10, longitude_max: 30 } } },
  ],
  ["page 1", { page: 1 }],
  ["page 5,000", { page: 5000 }],
];

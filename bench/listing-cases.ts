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
  // Adversarial (issue 19): the planner assumes independent conditions; the seed's are not. Camera
  // makes, ISO and date_taken exist only on images; tag N and file type both follow i mod 10;
  // "rare" is on 100 assets.
  [
    "VIDEO + camera Canon (none)",
    { file_type: { includes: ["VIDEO"] }, exif: { camera: { camera_makes: ["Canon"] } } },
  ],
  ["DOCUMENT + iso ≥ 800 (none)", { file_type: { includes: ["DOCUMENT"] }, exif: { technical: { iso_min: 800 } } }],
  ["IMAGE + camera Canon (⊂)", { file_type: { includes: ["IMAGE"] }, exif: { camera: { camera_makes: ["Canon"] } } }],
  ["tag7 + IMAGE (none)", { tags: { includes: ["tag7"] }, file_type: { includes: ["IMAGE"] } }],
  ["tag7 + VIDEO (⊂)", { tags: { includes: ["tag7"] }, file_type: { includes: ["VIDEO"] } }],
  ["pdf + IMAGE (none)", { file_extension: { includes: ["pdf"] }, file_type: { includes: ["IMAGE"] } }],
  [
    "VIDEO + taken 2023 (none)",
    {
      file_type: { includes: ["VIDEO"] },
      exif: { technical: { date_taken_from: "2023-01-01", date_taken_to: "2023-12-31" } },
    },
  ],
  [
    "DOCUMENT + GPS Europe (none)",
    {
      file_type: { includes: ["DOCUMENT"] },
      exif: { location: { latitude_min: 30, latitude_max: 50, longitude_min: -10, longitude_max: 30 } },
    },
  ],
  ["min_confidence 0.995 (none)", { ai_tags: { min_confidence: 0.995 } }],
  ["label3 + conf ≥ 0.99 (none)", { ai_tags: { includes: ["label3"], min_confidence: 0.99 } }],
  ["search 'canon' (20 %)", { search: "canon" }],
  ["camera text 'model 1' (broad)", { exif: { camera: { camera_search: "model 1" } } }],
  ["search 'sunset zzz' (none)", { search: "sunset zzz" }],
  [
    "or: VIDEO+Canon | rare",
    {
      or_groups: [
        { file_type: { includes: ["VIDEO"] }, tags: { any_of: ["tag7"] }, search: "canon" },
        { tags: { any_of: ["rare"] } },
      ],
    },
  ],
  [
    "or: IMAGE | tag7, + Sony",
    {
      or_groups: [{ file_type: { includes: ["IMAGE"] } }, { tags: { any_of: ["tag7"] } }],
      exif: { camera: { camera_makes: ["Sony"] } },
    },
  ],
  [
    "red + DOCUMENT + tag3 (none)",
    {
      colors: { simplified_colors: { includes: ["red"] } },
      file_type: { includes: ["DOCUMENT"] },
      tags: { includes: ["tag3"] },
    },
  ],
  ["favorite + VIDEO", { favorite: true, file_type: { includes: ["VIDEO"] } }],
  // Versions (issue 29): 10 % of the assets have 2–5 (bench/listing-versions.ts), and a rare tag among them.
  ["has_versions (10 %)", { has_versions: true }],
  ["has_versions + rare tag", { has_versions: true, tags: { includes: ["rare"] } }],
  ...deepPages(),
  // The same deep pages reached as the grid reaches them, scrolling: the page before is asked first
  // (untimed), so its end is a waypoint (modules/listing/waypoints.ts). The ones above are cold jumps.
  ...deepPages().map(([label, input]): [string, AssetListInput] => [`${label} (scrolled)`, input]),
  // And by cursor (issue 36), as an API client walks: the page before's `next_cursor` is fetched once
  // (untimed), then the page after it is asked by that cursor instead of its number.
  ["page 5,000 (cursor)", { page: 5000 }],
  ...deepPages().map(([label, input]): [string, AssetListInput] => [`${label} (cursor)`, input]),
];

/** Deep pages of broad filters (issue 19). */
function deepPages(): Array<[string, AssetListInput]> {
  return [
    ["IMAGE page 5,000", { file_type: { includes: ["IMAGE"] }, page: 5000 }],
    ["search 'sunset' page 5,000", { search: "sunset", page: 5000 }],
    [
      "Canon + iso ≥ 800 page 2,000",
      { exif: { camera: { camera_makes: ["Canon"] }, technical: { iso_min: 800 } }, page: 2000 },
    ],
    ["jpg by name page 1,000", { file_extension: { includes: ["jpg"] }, order_by: "name", page: 1000 }],
    ["all by -size page 5,000", { order_by: "-size", page: 5000 }],
    // By date taken: among the dated (images), and among the undated (videos have none; they sort last).
    ["all by -date_taken page 5,000", { order_by: "-date_taken", page: 5000 }],
    ["VIDEO by date_taken page 5,000", { file_type: { includes: ["VIDEO"] }, order_by: "date_taken", page: 5000 }],
  ];
}

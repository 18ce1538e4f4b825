import { AssetListBody } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { checkFilters } from "./filter-check";

/** The contract's own verdict: the listing body's filter keys (what the grid keeps in the URL). */
const Filters = AssetListBody.omit({ search: true, page: true, page_size: true, order_by: true, board_id: true });

const FIELD = "7b0a6a7e-2d1c-4c1e-9f55-1f0b8f7a2c11";
const OPTION = "0c4b1f3e-8a2d-4e6f-b1a0-9d8c7b6a5f4e";

const valid: unknown[] = [
  {},
  { file_type: { includes: ["IMAGE", "VIDEO"], excludes: ["ARCHIVE"] } },
  { file_extension: { includes: ["  jpg "], excludes: [".png"] } },
  { favorite: false, has_open_comments: true },
  { has_versions: true },
  { has_versions: false, favorite: true },
  { rights_expire: { within_days: 30 }, no_release: true, rights_license: { includes: ["editorial", "owned"] } },
  { rights_expire: { expired: false }, no_release: false },
  { approval_status: { includes: ["none", "in_review", "approved", "approved_with_changes"], excludes: ["rejected"] } },
  { date_uploaded_from: "2024-02-29", date_uploaded_to: "2024-12-31T23:59:59.123+02:00" },
  { tags: { includes: ["Café crème", " été "], excludes: ["draft"] } },
  { ai_tags: { includes: ["dog"], excludes: ["cat"], ai_only: true, tag_types: ["object"], min_confidence: 0.8 } },
  { ai_tags: { manual_only: true, ai_only: false } },
  {
    or_groups: [
      { file_type: { includes: ["DOCUMENT"] }, tags: { any_of: ["a"], all_of: ["b"], none_of: ["c"] } },
      { favorite: true, search: " harbour ", colors: { simplified_colors: { includes: ["blue"] } } },
      { date_taken_from: "2023-05-01T00:00:00Z", custom_fields: [{ field_id: FIELD, is_empty: false }] },
    ],
  },
  {
    colors: {
      dominant_colors: { includes: ["#ff0000"], excludes: ["00ff00", "#abc"] },
      simplified_colors: { includes: ["red", "white"] },
      color_search: "#1e90ff",
    },
  },
  { image_quality: { contrast_min: 0, contrast_max: 100, sharpness_min: 50, brightness_max: 70 } },
  {
    exif: {
      exif_search: "Leica",
      location: { latitude_min: -90, latitude_max: 40, longitude_min: 180, altitude_max: -12, has_gps: true },
      camera: { camera_makes: ["Canon"], camera_models: ["EOS R5"], camera_search: "eos" },
      technical: {
        iso_min: 0,
        iso_max: 3200,
        aperture_values: [1.8, 2.8],
        exposure_times: [0.008],
        focal_lengths: [35, 50],
        date_taken_from: "2023-05-01",
        date_taken_to: "2023-05-31T12:00:00-05:30",
      },
    },
  },
  {
    custom_fields: [
      {
        field_id: FIELD,
        any_of: [OPTION],
        all_of: [OPTION],
        none_of: [],
        text_contains: " x ",
        date_from: "2020-01-01",
        date_to: "2020-12-31",
      },
    ],
  },
  { tags: { includes: Array.from({ length: 100 }, (_, i) => `t${i}`) } },
  { similar_to: { asset_id: FIELD, max_distance: 11 } },
  { similar_to: { asset_id: FIELD }, favorite: true },
];

const invalid: unknown[] = [
  null,
  [],
  "favorite",
  { nope: 1 },
  { search: "in the URL as q, not f" },
  { page: 2 },
  { file_type: { includes: ["image"] } },
  { file_type: { includes: "IMAGE" } },
  { file_type: { any: ["IMAGE"] } },
  { approval_status: { includes: ["pending"] } },
  { approval_status: { includes: "approved" } },
  { approval_status: { includes: ["open"] } },
  { rights_expire: { within_days: 0 } },
  { rights_expire: { within_days: 2.5 } },
  { rights_expire: { soon: true } },
  { no_release: "yes" },
  { rights_license: { includes: ["stolen"] } },
  { rights_license: {} },
  { favorite: "true" },
  { favorite: null },
  { date_uploaded_from: "2023-02-29" },
  { date_uploaded_from: "2024-01-01T10:00" },
  { date_uploaded_to: "2024-01-01T10:00:00" },
  { date_uploaded_to: "yesterday" },
  { tags: { includes: [""] } },
  { tags: { includes: ["   "] } },
  { tags: { includes: ["x".repeat(201)] } },
  { tags: { includes: Array.from({ length: 101 }, (_, i) => `t${i}`) } },
  { ai_tags: { ai_only: true, manual_only: true } },
  { ai_tags: { min_confidence: 1.5 } },
  { or_groups: [{}] },
  { or_groups: [{ has_open_comments: true }] },
  { or_groups: Array.from({ length: 21 }, () => ({ favorite: true })) },
  { colors: { color_search: "blue" } },
  { colors: { simplified_colors: { includes: ["teal"] } } },
  { image_quality: { contrast_min: -1 } },
  { image_quality: { brightness_max: 101 } },
  { exif: { location: { latitude_min: 91 } } },
  { exif: { technical: { aperture_values: [0] } } },
  { exif: { technical: { iso_min: -100 } } },
  { exif: { camera: { camera_search: "" } } },
  { custom_fields: [{ field_id: "not-a-uuid" }] },
  { custom_fields: [{ field_id: FIELD, date_from: "2020-01-01T00:00:00Z" }] },
  { custom_fields: [{ any_of: [OPTION] }] },
  { custom_fields: Array.from({ length: 51 }, () => ({ field_id: FIELD })) },
  { similar_to: { max_distance: 4 } },
  { similar_to: { asset_id: "nope" } },
  { similar_to: { asset_id: FIELD, max_distance: 12 } },
  { similar_to: { asset_id: FIELD, max_distance: 2.5 } },
  { similar_to: { asset_id: FIELD, extra: 1 } },
];

describe("the URL filter check by hand", () => {
  it("accepts what the contract accepts, with the same output (texts trimmed)", () => {
    for (const value of valid) {
      const contract = Filters.safeParse(value);
      expect(contract.success, JSON.stringify(value)).toBe(true);
      expect(checkFilters(value), JSON.stringify(value)).toEqual(contract.data);
    }
  });

  it("refuses what the contract refuses", () => {
    for (const value of invalid) {
      expect(Filters.safeParse(value).success, JSON.stringify(value)).toBe(false);
      expect(checkFilters(value), JSON.stringify(value)).toBeNull();
    }
  });
});

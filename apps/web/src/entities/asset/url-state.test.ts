import { SIMILAR_DISTANCE_DEFAULT } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import type { AssetFilters } from "./filter-model";
import { listingBody, pruneFilters } from "./filter-model";
import { decodeFilters, encodeFilters, PARAM, readBrowseParams, similarPath, writeBrowseParams } from "./url-state";

/** One of every filter kind of the listing contract. */
const everything: AssetFilters = {
  file_type: { includes: ["IMAGE", "VIDEO"], excludes: ["ARCHIVE"] },
  file_extension: { includes: ["jpg"], excludes: [".png"] },
  favorite: false,
  has_versions: true,
  approval_status: { includes: ["none", "in_review", "changes_requested"], excludes: ["rejected"] },
  date_uploaded_from: "2024-01-01",
  date_uploaded_to: "2024-12-31T23:59:59Z",
  tags: { includes: ["Café crème", "été"], excludes: ["draft"] },
  ai_tags: { includes: ["dog"], excludes: ["cat"], ai_only: true, tag_types: ["object"], min_confidence: 0.8 },
  or_groups: [
    { file_type: { includes: ["DOCUMENT"] }, tags: { any_of: ["a"], all_of: ["b"], none_of: ["c"] } },
    { favorite: true, search: "harbour", colors: { simplified_colors: { includes: ["blue"] } } },
  ],
  colors: {
    dominant_colors: { includes: ["#ff0000"], excludes: ["00ff00"] },
    simplified_colors: { includes: ["red", "white"] },
    color_search: "#1e90ff",
  },
  image_quality: { contrast_min: 10, contrast_max: 90, sharpness_min: 50, brightness_max: 70 },
  exif: {
    exif_search: "Leica",
    location: { latitude_min: -10.5, latitude_max: 40, longitude_min: 0, altitude_max: 1200, has_gps: true },
    camera: { camera_makes: ["Canon"], camera_models: ["EOS R5"], camera_search: "eos" },
    technical: {
      iso_min: 100,
      iso_max: 3200,
      aperture_values: [1.8, 2.8],
      exposure_times: [0.008],
      focal_lengths: [35, 50],
      date_taken_from: "2023-05-01",
      date_taken_to: "2023-05-31",
    },
  },
};

describe("filters in the URL", () => {
  it("round-trips every filter kind, non-ASCII text included", () => {
    const encoded = encodeFilters(everything);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/); // base64url: nothing to escape in a link
    expect(decodeFilters(encoded)).toEqual(everything);
  });

  it("encodes no filter as an empty string and drops empty groups", () => {
    expect(encodeFilters({})).toBe("");
    expect(encodeFilters({ tags: { includes: [] }, colors: { simplified_colors: {} }, or_groups: [{}] })).toBe("");
    expect(pruneFilters({ tags: { includes: ["x"], excludes: [] }, favorite: false })).toEqual({
      tags: { includes: ["x"] },
      favorite: false,
    });
  });

  it("ignores an f that is not base64, not JSON, or not a valid filter", () => {
    expect(decodeFilters("%%%")).toEqual({});
    expect(decodeFilters(btoa("not json"))).toEqual({});
    expect(decodeFilters(encodeFilters({ nope: 1 } as unknown as AssetFilters))).toEqual({});
    expect(decodeFilters(encodeFilters({ file_type: { includes: ["image" as "IMAGE"] } }))).toEqual({});
  });

  it("reads and writes q, sort and f, leaving defaults and other parameters out", () => {
    const written = writeBrowseParams(new URLSearchParams("keep=1&sort=name"), {
      search: "red boat",
      order: "-date_uploaded",
      filters: { favorite: true },
    });
    expect(written.get("keep")).toBe("1");
    expect(written.get(PARAM.order)).toBeNull(); // the default order is not written
    expect(written.get(PARAM.search)).toBe("red boat");
    const back = readBrowseParams(new URLSearchParams(written.toString()));
    expect(back).toEqual({ search: "red boat", order: "-date_uploaded", filters: { favorite: true } });

    const cleared = writeBrowseParams(written, { search: "  ", order: "-size", filters: {} });
    expect(cleared.has(PARAM.search)).toBe(false);
    expect(cleared.has(PARAM.filters)).toBe(false);
    expect(cleared.get(PARAM.order)).toBe("-size");
  });

  it("keeps the approval status filter (issue 30) through the address, and refuses a status it does not know", () => {
    const filters: AssetFilters = {
      approval_status: { includes: ["approved", "approved_with_changes"], excludes: ["none"] },
    };
    const written = writeBrowseParams(new URLSearchParams(), { search: "", order: "-date_uploaded", filters });
    const back = readBrowseParams(new URLSearchParams(written.toString()));
    expect(back.filters).toEqual(filters);
    expect(listingBody({ ...back, boardId: null }, 1).approval_status).toEqual(filters.approval_status);
    expect(decodeFilters(encodeFilters({ approval_status: { includes: ["pending" as "approved"] } }))).toEqual({});
    // An empty choice is no condition at all.
    expect(encodeFilters({ approval_status: { includes: [] } })).toBe("");
  });

  it("falls back to the default order for an unknown sort", () => {
    expect(readBrowseParams(new URLSearchParams("sort=colour")).order).toBe("-date_uploaded");
  });
});

describe("listingBody", () => {
  it("sends 20 a page with filters, the default 10 without, and only non-empty keys", () => {
    const plain = listingBody({ search: " ", order: "name", filters: {}, boardId: null }, 1);
    expect(plain).toEqual({ order_by: "name", page: 1, page_size: 10 });
    const filtered = listingBody(
      { search: "boat", order: "-date_uploaded", filters: { tags: { includes: ["x"] } }, boardId: "b1" },
      3,
    );
    expect(filtered).toEqual({
      tags: { includes: ["x"] },
      search: "boat",
      board_id: "b1",
      order_by: "-date_uploaded",
      page: 3,
      page_size: 20,
    });
  });
});

describe("similarPath (issue 32)", () => {
  const ASSET = "7b0a6a7e-2d1c-4c1e-9f55-1f0b8f7a2c11";
  it("opens All assets with similar_to at the contract's default distance, read back as it was written", () => {
    const path = similarPath("ws1", ASSET);
    expect(path.startsWith("/w/ws1/b/all?f=")).toBe(true);
    const params = new URLSearchParams(path.split("?")[1]);
    expect(readBrowseParams(params).filters).toEqual({
      similar_to: { asset_id: ASSET, max_distance: SIMILAR_DISTANCE_DEFAULT },
    });
    expect(decodeFilters(new URLSearchParams(similarPath("ws1", ASSET, 3).split("?")[1]).get("f"))).toEqual({
      similar_to: { asset_id: ASSET, max_distance: 3 },
    });
  });

  it("orders nearest first unless another order is chosen, and never without similar_to", () => {
    const similar: AssetFilters = { similar_to: { asset_id: ASSET, max_distance: 8 } };
    const opened = readBrowseParams(new URLSearchParams(similarPath("ws1", ASSET).split("?")[1]));
    expect(opened.order).toBe("distance");
    expect(listingBody({ ...opened, boardId: null }, 1).order_by).toBe("distance");
    // Nearest first is the default there: not written. Newest uploaded is a choice there: written.
    const nearest = writeBrowseParams(new URLSearchParams(), { search: "", order: "distance", filters: similar });
    expect(nearest.has(PARAM.order)).toBe(false);
    const newest = writeBrowseParams(new URLSearchParams(), { search: "", order: "-date_uploaded", filters: similar });
    expect(newest.get(PARAM.order)).toBe("-date_uploaded");
    expect(readBrowseParams(newest).order).toBe("-date_uploaded");
    // The banner cleared: back to newest uploaded, whatever the URL or the state held.
    const cleared = writeBrowseParams(nearest, { search: "", order: "distance", filters: {} });
    expect(cleared.has(PARAM.order)).toBe(false);
    expect(readBrowseParams(new URLSearchParams("sort=distance")).order).toBe("-date_uploaded");
    expect(listingBody({ search: "", order: "distance", filters: {}, boardId: null }, 1).order_by).toBe(
      "-date_uploaded",
    );
  });
});

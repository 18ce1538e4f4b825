import type { CustomField } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import type { AssetFilters } from "../../../entities/asset";
import { filterChips, removeChip } from "./filter-chips";

describe("filter chips", () => {
  const filters: AssetFilters = {
    file_type: { includes: ["IMAGE"] },
    tags: { includes: ["beach", "sunset"] },
    colors: { simplified_colors: { includes: ["red"] }, color_search: "#1E90FF" },
    image_quality: { contrast_min: 20, contrast_max: 80 },
    exif: { technical: { exposure_times: [0.008], aperture_values: [2.8] }, location: { has_gps: false } },
    or_groups: [{ favorite: true, tags: { any_of: ["x"] } }],
  };

  it("labels each condition", () => {
    expect(filterChips(filters).map((c) => c.label)).toEqual([
      "Type: Image",
      "Tag: beach",
      "Tag: sunset",
      "Colour: red",
      "Near #1e90ff",
      "Contrast 20–80",
      "No GPS",
      "f/2.8",
      "1/125 s",
      "Any of 1: Favourites & Tag: x",
    ]);
    expect(filterChips(filters).find((c) => c.label === "Colour: red")?.swatch).toBe("#e03131");
  });

  it("names people by their names (issue 32), an unknown one as Person, and removes one at a time", () => {
    const a = "11111111-1111-4111-8111-111111111111";
    const b = "22222222-2222-4222-8222-222222222222";
    const f: AssetFilters = { people: { includes: [a, b], excludes: [b] } };
    const chips = filterChips(f, [], new Map([[a, "Ada"]]));
    expect(chips.map((c) => c.label)).toEqual(["Person: Ada", "Person: Person", "Not: Person"]);
    expect(removeChip(f, chips[0]!).people).toEqual({ includes: [b], excludes: [b] });
  });

  it("removing a chip takes out just its condition, and empties disappear", () => {
    const chips = filterChips(filters);
    const byLabel = (label: string) => chips.find((c) => c.label === label)!;
    expect(removeChip(filters, byLabel("Tag: beach")).tags).toEqual({ includes: ["sunset"] });
    expect(removeChip(filters, byLabel("Type: Image")).file_type).toBeUndefined();
    expect(removeChip(filters, byLabel("Contrast 20–80")).image_quality).toBeUndefined();
    expect(removeChip(filters, byLabel("Any of 1: Favourites & Tag: x")).or_groups).toBeUndefined();
    const noExposure = removeChip(filters, byLabel("1/125 s"));
    expect(noExposure.exif?.technical).toEqual({ aperture_values: [2.8] });
    // Chip ids are unique, so React keys are stable.
    expect(new Set(chips.map((c) => c.id)).size).toBe(chips.length);
  });

  it("says whether an asset has versions, and removing the chip takes the condition out", () => {
    const [yes] = filterChips({ has_versions: true });
    expect(yes?.label).toBe("Has versions");
    expect(removeChip({ has_versions: true, favorite: true }, yes!)).toEqual({ favorite: true });
    expect(filterChips({ has_versions: false }).map((c) => c.label)).toEqual(["One version"]);
  });

  it("labels approval statuses (issue 30) in the contract's words, one removable chip each", () => {
    const approval: AssetFilters = {
      approval_status: { includes: ["none", "changes_requested"], excludes: ["rejected"] },
    };
    const chips = filterChips(approval);
    expect(chips.map((c) => c.label)).toEqual([
      "Approval: Not in review",
      "Approval: Changes requested",
      "Approval not: Rejected",
    ]);
    expect(removeChip(approval, chips[0]!).approval_status).toEqual({
      includes: ["changes_requested"],
      excludes: ["rejected"],
    });
  });

  it("has no chip without filters", () => {
    expect(filterChips({})).toEqual([]);
  });

  it("names a custom-field condition by the field and the chosen values, not “Custom fields (1)” (issue 35)", () => {
    const status = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa";
    const notes = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb";
    const [approved, draft] = ["cccccccc-cccc-4ccc-8ccc-cccccccccccc", "dddddddd-dddd-4ddd-8ddd-dddddddddddd"];
    const fields = [
      {
        id: status,
        title: "Status",
        field_type: "SINGLE_SELECT",
        options: [
          { id: approved, label: "Approved" },
          { id: draft, label: "Draft" },
        ],
      },
      { id: notes, title: "Notes", field_type: "TEXT", options: [] },
    ] as unknown as CustomField[];
    const withFields: AssetFilters = {
      custom_fields: [
        { field_id: status, any_of: [approved] },
        { field_id: notes, text_contains: "launch" },
      ],
      or_groups: [{ custom_fields: [{ field_id: status, none_of: [draft] }] }],
    };
    const chips = filterChips(withFields, fields);
    expect(chips.map((c) => c.label)).toEqual([
      "Status: Approved",
      "Notes contains “launch”",
      "Any of 1: Status: not Draft",
    ]);
    // Removing one takes out that field's condition only.
    expect(removeChip(withFields, chips[0]!).custom_fields).toEqual([{ field_id: notes, text_contains: "launch" }]);
    expect(removeChip(removeChip(withFields, chips[0]!), chips[1]!).custom_fields).toBeUndefined();
    // Before the fields arrive: still one chip per condition, named generically.
    expect(filterChips(withFields).map((c) => c.label)[0]).toBe("Custom field: an option");
  });
});

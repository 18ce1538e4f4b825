import { describe, expect, it } from "vitest";
import { anAsset, aVersion } from "../../test/fixtures";
import { versionByNumber, versionView, withoutVersionParams } from "./api";

describe("versionView: the asset as one of its versions shows it (issue 29)", () => {
  const v1 = aVersion({ number: 1, width: 400, height: 300, thumbnail_url: "/media/v1/thumb.jpg", size: 10 });
  const v2 = aVersion({ number: 2, is_current: true });
  const asset = anAsset({
    name: "poster.jpg",
    tags: ["launch"],
    version_count: 2,
    current_version: { id: v2.id, number: 2 },
    thumbnail_url: "/media/v2/thumb.jpg",
  });

  it("takes an older version's media and facts under the asset's identity", () => {
    const view = versionView(asset, v1);
    expect(view).toMatchObject({ id: asset.id, name: "poster.jpg", tags: ["launch"], version_count: 2 });
    expect(view).toMatchObject({ thumbnail_url: "/media/v1/thumb.jpg", width: 400, height: 300, size: 10 });
    expect(asset.thumbnail_url).toBe("/media/v2/thumb.jpg");
  });

  it("is the asset itself for the current version, or when no version is known", () => {
    expect(versionView(asset, v2)).toBe(asset);
    expect(versionView(asset, undefined)).toBe(asset);
  });
});

describe("versionByNumber", () => {
  const list = [aVersion({ number: 3, is_current: true }), aVersion({ number: 1 })];
  it("finds the number asked for, else the current version; nothing before the list is known", () => {
    expect(versionByNumber(list, 1)?.number).toBe(1);
    expect(versionByNumber(list, 2)?.number).toBe(3);
    expect(versionByNumber(list, null)?.number).toBe(3);
    expect(versionByNumber(undefined, 1)).toBeUndefined();
  });
});

describe("withoutVersionParams", () => {
  it("drops the viewer's version and compare, keeps the grid's own", () => {
    expect(withoutVersionParams("?q=sun&version=2&compare=1&sort=name")).toBe("?q=sun&sort=name");
    expect(withoutVersionParams("?version=2")).toBe("");
    expect(withoutVersionParams("")).toBe("");
  });
});

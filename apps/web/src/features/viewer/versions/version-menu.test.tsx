import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { anAsset, anId, aVersion } from "../../../test/fixtures";
import { renderWithApp } from "../../../test/render";
import { VersionMenu, type VersionMenuProps } from "./version-menu";

/** The viewer header's version menu (issue 29). */
const v3 = aVersion({
  number: 3,
  is_current: true,
  comment_count: 2,
  uploaded_by: { id: anId(), name: "Olivia Owner" },
});
const v2 = aVersion({ number: 2, status: "processing", url: null });
const v1 = aVersion({ number: 1, comment_count: 1 });

function open(overrides: Partial<VersionMenuProps> = {}) {
  const props: VersionMenuProps = {
    asset: anAsset({ version_count: 3, current_version: { id: v3.id, number: 3 } }),
    versions: [v3, v2, v1],
    error: null,
    onRetry: vi.fn(),
    shownId: v3.id,
    onShow: vi.fn(),
    onCompare: vi.fn(),
    onUpload: vi.fn(),
    onMakeCurrent: vi.fn(),
    onDownload: vi.fn(),
    onDelete: vi.fn(),
    onDetach: vi.fn(),
    ...overrides,
  };
  const view = renderWithApp(<VersionMenu {...props} />);
  return { ...view, props };
}

const row = (n: number) => screen.getAllByTestId("version-row").find((r) => r.dataset.version === String(n))!;

describe("version menu", () => {
  it("says the version shown and lists every version with its date, uploader and comment count", async () => {
    const { user } = open();
    expect(screen.getByTestId("version-menu").textContent).toBe("v3");
    await user.click(screen.getByTestId("version-menu"));
    expect(screen.getAllByTestId("version-row").map((r) => r.dataset.version)).toEqual(["3", "2", "1"]);
    expect(row(3).textContent).toContain("Current");
    expect(row(3).textContent).toContain("Olivia Owner");
    expect(within(row(3)).getByTestId("version-comments").textContent).toBe("2");
    expect(row(2).textContent).toContain("Processing…");
    expect(within(row(2)).getByRole("button", { name: "Show v2" })).toHaveProperty("disabled", true);
  });

  it("shows a version on a click, and compares the shown one with another", async () => {
    const { user, props } = open();
    await user.click(screen.getByTestId("version-menu"));
    await user.click(screen.getByRole("button", { name: "Show v1" }));
    expect(props.onShow).toHaveBeenCalledWith(v1);
    await user.click(screen.getByTestId("version-menu"));
    await user.click(screen.getByTestId("version-compare"));
    expect(props.onCompare).toHaveBeenCalledWith(v3, v1);
  });

  it("holds Make current, Download, Detach and Delete for an editor", async () => {
    const { user, props } = open();
    await user.click(screen.getByTestId("version-menu"));
    await user.click(screen.getByRole("button", { name: "Actions for v1" }));
    const items = screen.getAllByRole("menuitem").map((i) => i.textContent);
    expect(items).toEqual(["Make current", "Compare with v3", "Download", "Detach", "Delete"]);
    await user.click(screen.getByRole("menuitem", { name: "Make current" }));
    expect(props.onMakeCurrent).toHaveBeenCalledWith(v1);
  });

  it("gives a commenter only what they may do: no upload, no changes", async () => {
    const asset = anAsset({
      abilities: { edit: false, delete: false, comment: true, share: false, download: true },
      version_count: 3,
      current_version: { id: v3.id, number: 3 },
    });
    const { user } = open({ asset });
    await user.click(screen.getByTestId("version-menu"));
    expect(screen.queryByRole("button", { name: "Upload new version…" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Actions for v1" }));
    expect(screen.getAllByRole("menuitem").map((i) => i.textContent)).toEqual(["Compare with v3", "Download"]);
  });

  it("shows the server's detail when the versions cannot be fetched, with Retry", async () => {
    const { ApiError } = await import("../../../lib/api-client");
    const { user, props } = open({
      versions: undefined,
      error: new ApiError({ status: 500, detail: "Database unavailable" }),
    });
    await user.click(screen.getByTestId("version-menu"));
    expect(screen.getByTestId("versions-error").textContent).toContain("Database unavailable");
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(props.onRetry).toHaveBeenCalled();
  });
});

import { type Comment, CommentPage, commentsApi } from "@hangar/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { aComment, anAsset, anId, WORKSPACE_ID } from "../../../test/fixtures";
import { renderWithApp } from "../../../test/render";
import { type CompareSide, CompareView } from "./compare-view";

/** Compare (issue 29): the sides, their annotations, and the overlay modes. */
const api = installFakeApi();

const V1 = { id: anId(), number: 1 };
const V2 = { id: anId(), number: 2 };
const side = (version: typeof V1, width: number, height: number): CompareSide => ({
  key: version.id,
  label: `v${version.number}`,
  asset: anAsset({ width, height, thumbnail_url: `/media/${version.id}/thumb.jpg` }),
  version,
});
const page = (results: Comment[]) => CommentPage.parse({ results, next_cursor: null, count: results.length });

function serveComments() {
  api.on(commentsApi.list, (call) =>
    page(
      call.query.get("version_id") === V1.id ? [aComment({ version: V1, annotation_type: "POINT", x: 10, y: 10 })] : [],
    ),
  );
}

describe("compare", () => {
  it("shows both sides, each with its own version's annotations", async () => {
    serveComments();
    renderWithApp(
      <CompareView
        workspaceId={WORKSPACE_ID}
        title="Compare"
        sides={[side(V1, 800, 500), side(V2, 1600, 1000)]}
        onClose={vi.fn()}
      />,
    );
    const sides = screen.getAllByTestId("compare-side");
    expect(sides.map((s) => within(s).getByTestId("compare-side-label").textContent)).toEqual(["v1", "v2"]);
    await waitFor(() => expect(within(sides[0]!).getAllByTestId("annotation-marker")).toHaveLength(1));
    expect(within(sides[1]!).queryByTestId("annotation-marker")).toBeNull();
    const asked = api.callsTo(commentsApi.list).map((c) => c.query.get("version_id"));
    expect(asked.sort()).toEqual([V1.id, V2.id].sort());
    // Nothing can be drawn on a side.
    for (const layer of screen.getAllByTestId("annotation-layer")) expect(layer.dataset.drawing).toBe("off");
  });

  it("offers overlay and difference only for two images of the same shape", () => {
    serveComments();
    renderWithApp(
      <CompareView
        workspaceId={WORKSPACE_ID}
        title="Compare"
        sides={[side(V1, 800, 500), side(V2, 800, 800)]}
        onClose={vi.fn()}
      />,
    );
    const modes = screen.getByTestId("compare-mode");
    expect(within(modes).getByLabelText("Overlay")).toHaveProperty("disabled", true);
    expect(within(modes).getByLabelText("Difference")).toHaveProperty("disabled", true);
  });

  it("overlay cuts between the two at the slider; difference blends them", async () => {
    serveComments();
    const { user } = renderWithApp(
      <CompareView
        workspaceId={WORKSPACE_ID}
        title="Compare"
        sides={[side(V1, 800, 500), side(V2, 1600, 1000)]}
        onClose={vi.fn()}
      />,
    );
    await user.click(within(screen.getByTestId("compare-mode")).getByLabelText("Overlay"));
    const top = screen.getByTestId("overlay-top");
    expect(top.style.clipPath).toBe("inset(0 0 0 50%)");
    const slider = screen.getByRole("slider", { name: "Overlay position" });
    slider.focus();
    await user.keyboard("{ArrowRight}{ArrowRight}{ArrowRight}");
    expect(top.style.clipPath).toBe("inset(0 0 0 53%)");
    await user.click(within(screen.getByTestId("compare-mode")).getByLabelText("Difference"));
    expect(screen.getByTestId("overlay-top").style.mixBlendMode).toBe("difference");
    expect(screen.getByTestId("difference-legend").textContent).toContain("v1 and v2");
  });

  it("says why it cannot show the sides", () => {
    renderWithApp(
      <CompareView
        workspaceId={WORKSPACE_ID}
        title="Compare"
        sides={null}
        error="Asset not found."
        onClose={vi.fn()}
      />,
    );
    expect(screen.getByTestId("compare-error").textContent).toContain("Asset not found.");
  });
});

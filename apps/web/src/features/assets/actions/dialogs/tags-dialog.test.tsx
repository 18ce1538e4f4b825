import { assetsApi } from "@hangar/contract";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { installFakeApi } from "../../../../test/fake-api";
import { WORKSPACE_ID } from "../../../../test/fixtures";
import { renderWithApp } from "../../../../test/render";
import { TagsDialog } from "./tags-dialog";

const api = installFakeApi();
const IDS = ["33333333-3333-4333-8333-333333333333", "44444444-4444-4444-8444-444444444444"];
const sent = () => api.callsTo(assetsApi.setTags).map((c) => c.body);
const tagsBox = () => screen.getByRole("textbox", { name: /Tags/ }) as HTMLTextAreaElement;
const modeButton = (name: string) => screen.getByRole("radio", { name });

function open(props: { ids?: string[]; initialTags?: string[] | null } = {}) {
  api.on(assetsApi.setTags, { status: "ok", count: (props.ids ?? IDS).length });
  const onClose = vi.fn();
  const view = renderWithApp(
    <TagsDialog
      workspaceId={WORKSPACE_ID}
      assetIds={props.ids ?? IDS}
      initialTags={props.initialTags === undefined ? ["shared"] : props.initialTags}
      opened
      onClose={onClose}
    />,
  );
  return { ...view, onClose };
}

describe("bulk Tag: Add tags (default) or Replace tags (issue 35)", () => {
  it("adds by default: starts empty, says their tags stay, and sends mode add", async () => {
    const { user, onClose } = open();
    expect(modeButton("Add tags")).toHaveProperty("checked", true);
    expect(tagsBox().value).toBe("");
    expect(screen.getByTestId("tags-mode-hint").textContent).toContain("the tags they have stay");
    expect((screen.getByRole("button", { name: "Save tags" }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(tagsBox(), "summer, beach");
    await user.click(screen.getByRole("button", { name: "Save tags" }));
    await waitFor(() => expect(sent()).toEqual([{ asset_ids: IDS, tags: ["summer", "beach"], mode: "add" }]));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("replaces when asked: starts from the tags they share, may clear them, and sends mode replace", async () => {
    const { user } = open();
    await user.click(modeButton("Replace tags"));
    expect(tagsBox().value).toBe("shared");
    expect(screen.getByTestId("tags-mode-hint").textContent).toContain("replace the tags of the 2 selected assets");
    await user.clear(tagsBox());
    expect(screen.getByText("No tags: saving clears them.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Save tags" }));
    await waitFor(() => expect(sent()).toEqual([{ asset_ids: IDS, tags: [], mode: "replace" }]));
  });

  it("keeps what was typed when the mode changes", async () => {
    const { user } = open();
    await user.type(tagsBox(), "draft");
    await user.click(modeButton("Replace tags"));
    expect(tagsBox().value).toBe("draft");
    await user.click(modeButton("Add tags"));
    expect(tagsBox().value).toBe("draft");
  });

  it("one asset: no choice, its tags prefilled, the list replaces them", async () => {
    const { user } = open({ ids: [IDS[0]!], initialTags: ["red"] });
    expect(screen.queryByTestId("tags-mode")).toBeNull();
    expect(tagsBox().value).toBe("red");
    await user.type(tagsBox(), ", blue");
    await user.click(screen.getByRole("button", { name: "Save tags" }));
    await waitFor(() => expect(sent()).toEqual([{ asset_ids: [IDS[0]], tags: ["red", "blue"], mode: "replace" }]));
  });
});

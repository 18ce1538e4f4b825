import { versionsApi } from "@hangar/contract";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { assetKeys } from "../../entities/asset";
import { failure, installFakeApi } from "../../test/fake-api";
import { anAsset, WORKSPACE_ID } from "../../test/fixtures";
import { renderWithApp } from "../../test/render";
import { StackVersionsDialog } from "./actions/dialogs/stack-versions-dialog";
import { CardBadges, hasBadges } from "./grid/card-badges";

/** Versions in the grid (issue 29): the card's "v3", and Stack as versions. */
const api = installFakeApi();

describe("the card's version badge", () => {
  it("says which version an asset of several shows, and nothing for an asset of one", () => {
    const three = anAsset({ version_count: 3, current_version: { id: anAsset().id, number: 3 } });
    expect(hasBadges(three, undefined)).toBe(true);
    renderWithApp(<CardBadges asset={three} chip={undefined} />);
    expect(screen.getByTestId("card-version").textContent).toBe("v3");
    expect(screen.getByTestId("card-version").getAttribute("aria-label")).toBe("Version 3 of 3");
    const one = anAsset({ version_count: 1, current_version: { id: anAsset().id, number: 1 } });
    expect(hasBadges(one, undefined)).toBe(false);
  });
});

describe("Stack as versions", () => {
  const older = anAsset({ name: "poster-round1.jpg", date_uploaded: "2026-03-01T09:00:00.000Z" });
  const newer = anAsset({ name: "poster-round2.jpg", date_uploaded: "2026-03-02T09:00:00.000Z" });
  const ids = [newer.id, older.id];

  /** The dialog as the bulk bar opens it: the selected assets are in the query cache already. */
  function open() {
    const onStacked = vi.fn();
    const dialog = (opened: boolean) => (
      <StackVersionsDialog
        workspaceId={WORKSPACE_ID}
        assetIds={ids}
        opened={opened}
        onClose={vi.fn()}
        onStacked={onStacked}
      />
    );
    const view = renderWithApp(dialog(false));
    for (const a of [older, newer]) view.queryClient.setQueryData(assetKeys.detail(WORKSPACE_ID, a.id), a);
    view.rerender(dialog(true));
    return { ...view, onStacked };
  }

  it("keeps the first uploaded by default and stacks the others onto it", async () => {
    api.on(versionsApi.stack, (call) => ({ ...older, id: call.params.assetId!, version_count: 2 }));
    const { user, onStacked } = open();
    const radios = screen.getAllByRole("radio") as HTMLInputElement[];
    expect(radios).toHaveLength(2);
    expect(screen.getByLabelText("poster-round1.jpg (first uploaded)")).toHaveProperty("checked", true);
    await user.click(screen.getByRole("button", { name: "Stack as versions" }));
    await waitFor(() => expect(api.callsTo(versionsApi.stack)).toHaveLength(1));
    const [call] = api.callsTo(versionsApi.stack);
    expect(call?.params.assetId).toBe(older.id);
    expect(call?.body).toEqual({ asset_ids: [newer.id] });
    await waitFor(() => expect(onStacked).toHaveBeenCalled());
  });

  it("stacks onto the one chosen, and shows the server's refusal", async () => {
    const refusal = "“poster-round1.jpg” is still uploading or processing: stack it once it is done.";
    api.on(versionsApi.stack, failure(409, refusal));
    const { user, onStacked } = open();
    await user.click(screen.getByLabelText("poster-round2.jpg"));
    await user.click(screen.getByRole("button", { name: "Stack as versions" }));
    await waitFor(() => expect(api.callsTo(versionsApi.stack)).toHaveLength(1));
    const [call] = api.callsTo(versionsApi.stack);
    expect(call?.params.assetId).toBe(newer.id);
    expect(call?.body).toEqual({ asset_ids: [older.id] });
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(onStacked).not.toHaveBeenCalled();
  });
});

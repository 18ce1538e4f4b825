import { type ShareLinkWithActivity, sharesApi, UpdateShareLinkBody } from "@hangar/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { type ApiCall, failure, installFakeApi } from "../../test/fake-api";
import { aShareLink, BOARD_ID, WORKSPACE_ID } from "../../test/fixtures";
import { renderWithApp } from "../../test/render";
import type { ShareTarget } from "./api";
import { ShareDialog } from "./share-dialog";

const api = installFakeApi();

const ASSET_ID = "33333333-3333-4333-8333-333333333333";
const assetTarget: ShareTarget = { workspaceId: WORKSPACE_ID, type: "asset", objectId: ASSET_ID, boardId: BOARD_ID };
const boardTarget: ShareTarget = { workspaceId: WORKSPACE_ID, type: "board", objectId: BOARD_ID, boardId: null };

/** A server that keeps one link: GET answers it, PUT applies the body as the server would. */
function serveLink(initial: Partial<ShareLinkWithActivity> = {}) {
  let link = aShareLink({ object_id: ASSET_ID, ...initial });
  api.on(sharesApi.get, () => link);
  api.on(sharesApi.update, (call) => {
    const { board_id: _board, password, ...flags } = UpdateShareLinkBody.parse(call.body);
    link = {
      ...link,
      ...flags,
      ...(password !== undefined ? { has_password: !!password } : {}),
      expires_at: flags.expires_at === undefined ? link.expires_at : flags.expires_at,
    };
    return link;
  });
  api.on(sharesApi.remove, { status: "ok" });
}

async function openDialog(target: ShareTarget = assetTarget) {
  const onClose = vi.fn();
  const view = renderWithApp(<ShareDialog opened onClose={onClose} target={target} itemName="harbour.jpg" />);
  await screen.findByTestId("share-dialog");
  return { ...view, onClose };
}

const toggle = (name: string) => screen.getByRole("switch", { name });
const summary = () => screen.getByTestId("share-summary").textContent;
const updates = (): ApiCall["body"][] => api.callsTo(sharesApi.update).map((c) => c.body);

describe("share dialog: summary label (spec 02 §4 Share link)", () => {
  it.each([
    ["Disabled", { is_active: false }],
    ["Limited visibility", { show_comments: false, show_custom_fields: false }],
    ["Full collaboration", { allow_editing_custom_fields: true }],
    ["Comment mode", {}],
    ["Edit mode", { allow_commenting: false, allow_editing_custom_fields: true }],
    ["View-only", { allow_commenting: false }],
    ["View-only", { show_comments: false, show_custom_fields: true, allow_editing_custom_fields: false }],
  ] as const)("shows %s for %j", async (label, flags) => {
    serveLink(flags);
    await openDialog();
    expect(summary()).toBe(label);
  });

  it("follows the flags as the user switches them", async () => {
    serveLink();
    const { user } = await openDialog();
    expect(summary()).toBe("Comment mode");
    await user.click(toggle("Allow editing custom fields"));
    await waitFor(() => expect(summary()).toBe("Full collaboration"));
    await user.click(toggle("Allow commenting"));
    await waitFor(() => expect(summary()).toBe("Edit mode"));
    await user.click(toggle("Link active"));
    await waitFor(() => expect(summary()).toBe("Disabled"));
    expect(screen.getByText(/This link is disabled/)).toBeTruthy();
  });
});

describe("share dialog: rules of the flags (spec 02 §5, §6)", () => {
  it("keeps custom-field editing disabled unless Show custom fields is on", async () => {
    serveLink({ show_custom_fields: false });
    const { user } = await openDialog();
    const editing = () => toggle("Allow editing custom fields") as HTMLInputElement;
    expect(editing().disabled).toBe(true);

    await user.click(toggle("Show custom fields"));
    await waitFor(() => expect(editing().disabled).toBe(false));
    expect(updates()).toEqual([{ show_custom_fields: true, board_id: BOARD_ID }]);
  });

  it("ends editing in the same save when custom fields are hidden", async () => {
    serveLink({ allow_editing_custom_fields: true });
    const { user } = await openDialog();
    await user.click(toggle("Show custom fields"));
    await waitFor(() => expect((toggle("Allow editing custom fields") as HTMLInputElement).disabled).toBe(true));
    expect((toggle("Allow editing custom fields") as HTMLInputElement).checked).toBe(false);
    expect(updates()).toEqual([{ show_custom_fields: false, allow_editing_custom_fields: false, board_id: BOARD_ID }]);
  });

  it("keeps commenting disabled while comments are hidden", async () => {
    serveLink({ show_comments: false });
    await openDialog();
    expect((toggle("Allow commenting") as HTMLInputElement).disabled).toBe(true);
    expect((toggle("Show comments") as HTMLInputElement).disabled).toBe(false);
  });

  it("sends only the flag switched: no expiry, no password", async () => {
    serveLink();
    const { user } = await openDialog();
    await user.click(toggle("Allow downloads"));
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]).toEqual({ allow_downloads: true, board_id: BOARD_ID });
  });
});

describe("share dialog: sharing options (spec 02 §4, §5)", () => {
  it("turning password protection off clears the password and saves", async () => {
    serveLink({ has_password: true });
    const { user } = await openDialog();
    // Options open by themselves when a password is set.
    const protection = toggle("Password protection") as HTMLInputElement;
    expect(protection.checked).toBe(true);
    await user.click(protection);
    await waitFor(() => expect(updates()).toEqual([{ password: null, board_id: BOARD_ID }]));
    expect(screen.queryByTestId("share-password")).toBeNull();
  });

  it("turning protection on and off without a password saved sends nothing", async () => {
    serveLink();
    const { user } = await openDialog();
    await user.click(screen.getByRole("button", { name: "Sharing options" }));
    await user.click(toggle("Password protection"));
    await user.click(toggle("Password protection"));
    expect(updates()).toEqual([]);
  });

  it("asks for the password in a password-type field, and sends it only once typed", async () => {
    serveLink();
    const { user } = await openDialog();
    await user.click(screen.getByRole("button", { name: "Sharing options" }));
    await user.click(toggle("Password protection"));
    const input = screen.getByLabelText("Password") as HTMLInputElement;
    expect(input.type).toBe("password");
    const save = screen.getByTestId("share-password-save") as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    await user.type(input, "s3cret");
    await user.click(save);
    await waitFor(() => expect(updates()).toEqual([{ password: "s3cret", board_id: BOARD_ID }]));
    expect(await screen.findByText("Password saved")).toBeTruthy();
    // The field empties; the link now says a password is set.
    await waitFor(() => expect((screen.getByLabelText("New password") as HTMLInputElement).value).toBe(""));
  });

  it("sends the expiry as an ISO time only when one is set, and null to clear it", async () => {
    serveLink();
    const { user } = await openDialog();
    await user.click(screen.getByRole("button", { name: "Sharing options" }));
    const expiry = screen.getByTestId("share-expiry") as HTMLInputElement;
    const setButton = () => screen.getByRole("button", { name: /^(Set|Clear)$/ }) as HTMLButtonElement;
    expect(setButton().disabled).toBe(true);

    await user.type(expiry, "2031-05-04T13:30");
    await user.click(setButton());
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]).toEqual({ expires_at: new Date("2031-05-04T13:30").toISOString(), board_id: BOARD_ID });

    await user.clear(expiry);
    expect(setButton().textContent).toBe("Clear");
    await user.click(setButton());
    await waitFor(() => expect(updates()).toHaveLength(2));
    expect(updates()[1]).toEqual({ expires_at: null, board_id: BOARD_ID });
  });
});

describe("share dialog: board_id and loading (spec 02 §5, §7, §8)", () => {
  it("sends an asset link's board_id when getting, updating and deleting it", async () => {
    serveLink();
    const { user, onClose } = await openDialog();
    const [get] = api.callsTo(sharesApi.get);
    expect(get?.params).toEqual({ id: WORKSPACE_ID, contentType: "asset", objectId: ASSET_ID });
    expect(get?.query.get("board_id")).toBe(BOARD_ID);

    await user.click(toggle("Show comments"));
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]).toMatchObject({ board_id: BOARD_ID });

    await user.click(screen.getByRole("button", { name: "Delete link" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.callsTo(sharesApi.remove)[0]?.query.get("board_id")).toBe(BOARD_ID);
    expect(await screen.findByText("Share link deleted")).toBeTruthy();
  });

  it("shows the link at the current origin with a loader until it arrives", async () => {
    serveLink();
    renderWithApp(<ShareDialog opened onClose={() => {}} target={assetTarget} itemName="harbour.jpg" />);
    const dialog = screen.getByRole("dialog", { name: "Share Asset" });
    expect(within(dialog).queryByTestId("share-dialog")).toBeNull();
    const url = (await within(dialog).findByLabelText("Share link")) as HTMLInputElement;
    expect(url.value).toBe(`${window.location.origin}/s/tok_abc`);
  });

  it("closes with the server's reason when the link cannot be loaded", async () => {
    api.on(sharesApi.get, failure(403, "You may not share this asset"));
    const onClose = vi.fn();
    renderWithApp(<ShareDialog opened onClose={onClose} target={assetTarget} itemName="harbour.jpg" />);
    expect(await screen.findByText("Failed to open share dialog: You may not share this asset")).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    expect(screen.queryByRole("dialog", { name: "Share Asset" })).toBeNull();
  });

  it("uses the board variant and the fallback text when the answer has no detail", async () => {
    api.on(sharesApi.get, failure(404));
    const onClose = vi.fn();
    renderWithApp(<ShareDialog opened onClose={onClose} target={boardTarget} itemName="Summer" />);
    expect(await screen.findByText("Failed to open board share dialog: Failed to get share link")).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    expect(api.callsTo(sharesApi.get)[0]?.query.has("board_id")).toBe(false);
  });

  it("reports a failed save with the server's detail and keeps the dialog", async () => {
    serveLink();
    api.on(sharesApi.update, failure(409, "Link was changed elsewhere"));
    const { user } = await openDialog();
    await user.click(toggle("Allow downloads"));
    expect(await screen.findByText("Link was changed elsewhere")).toBeTruthy();
    expect(screen.getByTestId("share-dialog")).toBeTruthy();
    expect((toggle("Allow downloads") as HTMLInputElement).checked).toBe(false);
  });
});

describe("share dialog: watermark (issue 33)", () => {
  it("adds a text watermark with a position, shows a preview, and removes it", async () => {
    serveLink();
    const { user } = await openDialog();
    await user.click(screen.getByTestId("watermark-heading"));
    await user.click(screen.getByRole("switch", { name: /Watermark what visitors see/ }));
    const text = screen.getByTestId("watermark-text");
    await user.clear(text);
    // An empty text cannot be saved, and says why.
    expect((screen.getByTestId("watermark-save") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("Enter the watermark's text")).toBeTruthy();
    await user.type(text, "DRAFT for {{visitor}");
    expect(screen.getByTestId("watermark-preview").getAttribute("aria-label")).toContain("DRAFT for ada@example.com");
    await user.click(screen.getByTestId("watermark-save"));
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]).toMatchObject({ watermark: { kind: "text", text: "DRAFT for {visitor}" } });
    await waitFor(() => expect(within(screen.getByTestId("watermark-heading")).getByText("On")).toBeTruthy());
    await user.click(screen.getByRole("switch", { name: /Watermark what visitors see/ }));
    await waitFor(() => expect(updates()).toHaveLength(2));
    expect(updates()[1]).toMatchObject({ watermark: null });
  });
});

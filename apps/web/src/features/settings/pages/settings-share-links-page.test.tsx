import {
  FileRequestSummary,
  fileRequestsApi,
  ShareLinkSummary,
  sharesApi,
  UpdateFileRequestBody,
  UpdateShareLinkBody,
  type Workspace,
} from "@hangar/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { WorkspaceContext } from "../../../entities/workspace";
import { failure, installFakeApi } from "../../../test/fake-api";
import { anId, aShareLink, BOARD_ID, WORKSPACE_ID } from "../../../test/fixtures";
import { renderWithApp } from "../../../test/render";
import { SettingsShareLinksPage } from "./settings-share-links-page";

const api = installFakeApi();

const shareLink = (over: Partial<ShareLinkSummary> = {}): ShareLinkSummary =>
  ShareLinkSummary.parse({
    ...aShareLink({ content_type: "board", object_id: BOARD_ID, board_id: null, has_password: true }),
    content_name: "Press kit",
    board_name: null,
    created_by_name: "Olivia",
    ...over,
  });

const uploadLink = (over: Partial<FileRequestSummary> = {}): FileRequestSummary =>
  FileRequestSummary.parse({
    id: anId(),
    board_id: BOARD_ID,
    token: "req_tok",
    path: "/r/req_tok",
    title: "Photos from the launch",
    message: "",
    is_active: true,
    expires_at: null,
    has_password: false,
    max_files: 20,
    max_file_bytes: 1e9,
    files_received: 2,
    bytes_received: 2 * 1024 * 1024,
    last_upload_at: null,
    created_at: "2026-03-01T10:00:00.000Z",
    board_name: "Press kit",
    created_by_name: "Olivia",
    ...over,
  });

/** A server keeping the workspace's links: the lists answer what PUT, PATCH and DELETE left. */
function serve(shares: ShareLinkSummary[], uploads: FileRequestSummary[]) {
  api.on(sharesApi.listAll, () => shares);
  api.on(sharesApi.update, (call) => {
    const { is_active } = UpdateShareLinkBody.parse(call.body);
    shares = shares.map((l) => (l.object_id === call.params.objectId ? { ...l, is_active: !!is_active } : l));
    const { content_name: _n, board_name: _b, created_by_name: _c, ...link } = shares[0]!;
    return link;
  });
  api.on(sharesApi.remove, (call) => {
    shares = shares.filter((l) => l.object_id !== call.params.objectId);
    return { status: "ok" as const };
  });
  api.on(fileRequestsApi.listAll, () => uploads);
  api.on(fileRequestsApi.update, (call) => {
    const { is_active } = UpdateFileRequestBody.parse(call.body);
    uploads = uploads.map((r) => (r.id === call.params.requestId ? { ...r, is_active: !!is_active } : r));
    const { board_name: _b, created_by_name: _c, ...request } = uploads.find((r) => r.id === call.params.requestId)!;
    return request;
  });
  api.on(fileRequestsApi.remove, (call) => {
    uploads = uploads.filter((r) => r.id !== call.params.requestId);
    return { status: "ok" as const };
  });
}

function renderPage() {
  const workspace = { id: WORKSPACE_ID, name: "Review studio" } as Workspace;
  return renderWithApp(
    <WorkspaceContext.Provider value={workspace}>
      <SettingsShareLinksPage />
    </WorkspaceContext.Provider>,
  );
}

const switchIn = (row: HTMLElement, name: string) => within(row).getByRole("switch", { name }) as HTMLInputElement;

describe("Settings → Share links: the share links, then the upload links, in one kind of table", () => {
  it("lists each kind with its own columns and texts", async () => {
    serve([shareLink()], [uploadLink()]);
    renderPage();
    const share = await screen.findByTestId("share-link-row");
    const upload = await screen.findByTestId("upload-link-row");
    expect(screen.getByText(/^1 link\. Turning a link off or deleting it stops every page/)).toBeTruthy();
    expect(share.textContent).toContain("Press kit");
    expect(share.textContent).toContain("Board · by Olivia");
    expect(within(share).getByText("Comment mode")).toBeTruthy();
    expect(within(share).getByLabelText("Password protected")).toBeTruthy();
    expect(within(share).getByText("Never")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Upload links" })).toBeTruthy();
    expect(upload.textContent).toContain("Photos from the launch · by Olivia");
    expect(within(upload).getByText("Open")).toBeTruthy();
    expect(upload.textContent).toContain("2 of 20 (2.00 MB)");
    expect(within(upload).queryByLabelText("Password protected")).toBeNull();
    for (const name of ["Copy link", "Delete the link of Press kit"])
      expect(within(share).getByRole("button", { name })).toBeTruthy();
    for (const name of ["Copy upload link", "Delete the upload link into Press kit"])
      expect(within(upload).getByRole("button", { name })).toBeTruthy();
  });

  it("turns each kind off through its own call, and deletes each with its own toast", async () => {
    serve([shareLink()], [uploadLink()]);
    const { user } = renderPage();
    const share = await screen.findByTestId("share-link-row");
    const upload = await screen.findByTestId("upload-link-row");

    await user.click(switchIn(share, "Disable the link of Press kit"));
    await waitFor(() => expect(switchIn(share, "Enable the link of Press kit").checked).toBe(false));
    expect(api.callsTo(sharesApi.update).map((c) => c.body)).toEqual([{ is_active: false }]);
    await user.click(switchIn(upload, "Disable the upload link into Press kit"));
    await waitFor(() => expect(within(upload).getByText("Disabled")).toBeTruthy());
    expect(api.callsTo(fileRequestsApi.update).map((c) => c.body)).toEqual([{ is_active: false }]);

    await user.click(within(upload).getByRole("button", { name: "Delete the upload link into Press kit" }));
    expect(await screen.findByText("Upload link deleted")).toBeTruthy();
    expect((await screen.findByTestId("upload-links-empty")).textContent).toContain("No upload links yet");
    await user.click(within(share).getByRole("button", { name: "Delete the link of Press kit" }));
    expect(await screen.findByText("Share link deleted")).toBeTruthy();
    expect((await screen.findByTestId("share-links-empty")).textContent).toContain("No share links yet");
  });

  it("says what failed: the server's words, else the kind's own (spec 02 §8 for share links)", async () => {
    serve([shareLink()], [uploadLink()]);
    api.on(sharesApi.update, failure(500));
    api.on(fileRequestsApi.remove, failure(503, "Storage is unavailable, try again shortly"));
    const { user } = renderPage();
    const share = await screen.findByTestId("share-link-row");
    const upload = await screen.findByTestId("upload-link-row");
    await user.click(switchIn(share, "Disable the link of Press kit"));
    expect(await screen.findByText("Failed to update share link")).toBeTruthy();
    await user.click(within(upload).getByRole("button", { name: "Delete the upload link into Press kit" }));
    expect(await screen.findByText("Storage is unavailable, try again shortly")).toBeTruthy();
    expect(screen.getAllByTestId("upload-link-row")).toHaveLength(1);
  });

  it("a member who is not an admin reads why, once, and no upload links section", async () => {
    api.on(sharesApi.listAll, failure(403, "Forbidden"));
    api.on(fileRequestsApi.listAll, failure(403, "Forbidden"));
    renderPage();
    expect(await screen.findByText("Only workspace admins can review share links.")).toBeTruthy();
    await waitFor(() => expect(api.callsTo(fileRequestsApi.listAll)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole("heading", { name: "Upload links" })).toBeNull());
    expect(screen.queryByRole("table")).toBeNull();
  });
});

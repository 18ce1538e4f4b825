import { type Asset, type Comment, CommentPage, commentsApi, membersApi, sharedApi } from "@hangar/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { useRef, useState } from "react";
import { describe, expect, it } from "vitest";
import { deferred, failure, installFakeApi } from "../../test/fake-api";
import { aComment, anAsset, BOARD_ID, WORKSPACE_ID } from "../../test/fixtures";
import { renderWithApp } from "../../test/render";
import { CommentDrawer } from "./comment-drawer";
import { ReviewProvider, type SharedReview } from "./review-context";

const api = installFakeApi();

const page = (results: Comment[]): CommentPage =>
  CommentPage.parse({ results, next_cursor: null, count: results.length });

/** The drawer inside the review the viewer gives it. */
function Drawer(props: { asset: Asset; boardId?: string | null; shared?: SharedReview | null }) {
  const [visibleId, setVisibleId] = useState<string | null>(null);
  const escapeBusy = useRef(false);
  return (
    <ReviewProvider
      workspaceId={WORKSPACE_ID}
      asset={props.asset}
      boardId={props.boardId ?? null}
      currentPage={1}
      goToPage={() => {}}
      visibleId={visibleId}
      setVisibleId={setVisibleId}
      escapeBusy={escapeBusy}
      shared={props.shared ?? null}
    >
      <CommentDrawer />
    </ReviewProvider>
  );
}

/** A member's view: the asset's comments, the members for mentions, and posting that echoes back. */
function serveComments(initial: Comment[] = []) {
  const comments = [...initial];
  api.on(commentsApi.list, () => page(comments));
  api.on(membersApi.list, []);
  api.on(commentsApi.create, (call) => {
    const body = call.body as { text: string; object_id: string; board_id?: string | null };
    const created = aComment({ text: body.text, object_id: body.object_id, board_id: body.board_id ?? null });
    comments.push(created);
    return created;
  });
}

const loader = () => document.querySelector(".mantine-Loader-root");
const composer = () => screen.getByRole("textbox", { name: "Add a comment…" }) as HTMLTextAreaElement;
const sendButton = () => screen.getByRole("button", { name: "Send comment" }) as HTMLButtonElement;
const posted = () => api.callsTo(commentsApi.create).map((c) => (c.body as { text: string }).text);

describe("comment drawer: states (spec 02 §2, §8)", () => {
  it("shows a loader until the comments arrive, then the list", async () => {
    const answer = deferred<CommentPage>();
    api.on(commentsApi.list, () => answer.promise);
    api.on(membersApi.list, []);
    renderWithApp(<Drawer asset={anAsset()} />);
    expect(loader()).not.toBeNull();
    expect(screen.queryByTestId("comments-empty")).toBeNull();
    expect(screen.queryByTestId("comment-list")).toBeNull();

    answer.resolve(page([aComment({ text: "Crop it tighter" })]));
    expect(await screen.findByText("Crop it tighter")).toBeTruthy();
    expect(within(screen.getByTestId("comment-list")).getAllByTestId("comment-thread")).toHaveLength(1);
    expect(loader()).toBeNull();
  });

  it("says there are no comments yet", async () => {
    serveComments();
    renderWithApp(<Drawer asset={anAsset()} />);
    const empty = await screen.findByTestId("comments-empty");
    expect(within(empty).getByText("No comments yet")).toBeTruthy();
    expect(within(empty).getByText("Be the first to leave a comment!")).toBeTruthy();
  });

  it("shows the load error with Retry, which loads the comments again", async () => {
    api.on(membersApi.list, []);
    api.on(commentsApi.list, failure(403, "You cannot read these comments"));
    const { user } = renderWithApp(<Drawer asset={anAsset()} />);
    const banner = await screen.findByTestId("comments-error");
    expect(within(banner).getByText("You cannot read these comments")).toBeTruthy();
    // An error is not an empty list.
    expect(screen.queryByTestId("comments-empty")).toBeNull();

    serveComments([aComment({ text: "Back again" })]);
    await user.click(within(banner).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Back again")).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId("comments-error")).toBeNull());
  });

  it("falls back to the catalogue's text when the error has no detail", async () => {
    api.on(membersApi.list, []);
    api.on(commentsApi.list, failure(404));
    renderWithApp(<Drawer asset={anAsset()} />);
    const banner = await screen.findByTestId("comments-error");
    expect(within(banner).getByText("Failed to fetch comments")).toBeTruthy();
  });

  it("asks for the comments of the current board", async () => {
    serveComments();
    renderWithApp(<Drawer asset={anAsset()} boardId={BOARD_ID} />);
    await screen.findByTestId("comments-empty");
    expect(api.callsTo(commentsApi.list)[0]?.query.get("board_id")).toBe(BOARD_ID);
  });
});

describe("comment drawer: who may comment (spec 02 §6)", () => {
  const visitor = (): SharedReview => ({ token: "tok_abc", identify: async () => ({ name: null, email: null }) });

  it("tells a link's visitor that comments are view-only when the link does not allow commenting", async () => {
    api.on(sharedApi.comments, page([aComment({ text: "From the team" })]));
    const asset = anAsset({ abilities: { edit: false, delete: false, comment: false, share: false, download: false } });
    renderWithApp(<Drawer asset={asset} shared={visitor()} />);
    expect(await screen.findByText("From the team")).toBeTruthy();
    expect(screen.getByTestId("comments-view-only").textContent).toBe("Comments are view-only in this shared link");
    expect(screen.queryByRole("textbox", { name: "Add a comment…" })).toBeNull();
    expect(api.callsTo(sharedApi.comments)[0]?.params).toEqual({ token: "tok_abc" });
  });

  it("lets a link's visitor comment when the link allows it", async () => {
    api.on(sharedApi.comments, page([]));
    api.on(sharedApi.comment, (call) => aComment({ text: (call.body as { text: string }).text, author: null }));
    const { user } = renderWithApp(<Drawer asset={anAsset()} shared={visitor()} />);
    await screen.findByTestId("comments-empty");
    expect(screen.queryByTestId("comments-view-only")).toBeNull();
    await user.type(composer(), "Lovely light{Enter}");
    await waitFor(() => expect(api.callsTo(sharedApi.comment)).toHaveLength(1));
    expect(api.callsTo(sharedApi.comment)[0]?.body).toMatchObject({
      text: "Lovely light",
      author_name: null,
      author_email: null,
    });
  });

  it("tells a member without commenting rights that comments are view-only", async () => {
    serveComments();
    const asset = anAsset({ abilities: { edit: false, delete: false, comment: false, share: false, download: true } });
    renderWithApp(<Drawer asset={asset} />);
    await screen.findByTestId("comments-empty");
    expect(screen.getByTestId("comments-view-only").textContent).toBe("Comments are view-only for you here");
  });
});

describe("comment drawer: the compose box (spec 02 §5)", () => {
  it("keeps Send disabled while the text is empty or only spaces, and sends nothing on Enter", async () => {
    serveComments();
    const { user } = renderWithApp(<Drawer asset={anAsset()} />);
    await screen.findByTestId("comments-empty");
    expect(sendButton().disabled).toBe(true);
    await user.type(composer(), "   ");
    expect(sendButton().disabled).toBe(true);
    await user.type(composer(), "{Enter}");
    expect(posted()).toEqual([]);
    await user.type(composer(), "x");
    expect(sendButton().disabled).toBe(false);
  });

  it("sends on Enter, adds a line on Shift+Enter, and trims the text", async () => {
    serveComments();
    const { user } = renderWithApp(<Drawer asset={anAsset()} boardId={BOARD_ID} />);
    await screen.findByTestId("comments-empty");
    await user.type(composer(), "  First line{Shift>}{Enter}{/Shift}second line  ");
    expect(composer().value).toBe("  First line\nsecond line  ");
    expect(posted()).toEqual([]);

    await user.type(composer(), "{Enter}");
    await waitFor(() => expect(posted()).toEqual(["First line\nsecond line"]));
    expect(api.callsTo(commentsApi.create)[0]?.body).toMatchObject({
      content_type: "asset",
      board_id: BOARD_ID,
      severity: "none",
    });
    expect(await screen.findByText("Comment posted successfully!")).toBeTruthy();
    await waitFor(() => expect(composer().value).toBe(""));
    // The list is fetched again and shows the new comment.
    expect(await screen.findByText(/second line/)).toBeTruthy();
  });

  it("sends with the Send button too", async () => {
    serveComments();
    const { user } = renderWithApp(<Drawer asset={anAsset()} />);
    await screen.findByTestId("comments-empty");
    await user.type(composer(), " Tighter crop ");
    await user.click(sendButton());
    await waitFor(() => expect(posted()).toEqual(["Tighter crop"]));
  });

  it("keeps the text and toasts 'Failed to post comment' when posting fails without a detail", async () => {
    serveComments();
    api.on(commentsApi.create, failure(500));
    const { user } = renderWithApp(<Drawer asset={anAsset()} />);
    await screen.findByTestId("comments-empty");
    await user.type(composer(), "Will this arrive?{Enter}");
    expect(await screen.findByText("Failed to post comment")).toBeTruthy();
    expect(composer().value).toBe("Will this arrive?");
  });

  it("toasts the server's detail when posting is refused with one", async () => {
    serveComments();
    api.on(commentsApi.create, failure(403, "This asset is locked for review"));
    const { user } = renderWithApp(<Drawer asset={anAsset()} />);
    await screen.findByTestId("comments-empty");
    await user.type(composer(), "Let me in{Enter}");
    expect(await screen.findByText("This asset is locked for review")).toBeTruthy();
  });

  it("toasts 'Failed to post reply' when a reply fails without a detail", async () => {
    serveComments([aComment({ text: "Top of the thread" })]);
    api.on(commentsApi.create, failure(500));
    const { user } = renderWithApp(<Drawer asset={anAsset()} />);
    await screen.findByText("Top of the thread");
    await user.click(screen.getByRole("button", { name: "Reply" }));
    await user.type(screen.getByRole("textbox", { name: "Reply…" }), "Agreed{Enter}");
    expect(await screen.findByText("Failed to post reply")).toBeTruthy();
    expect(api.callsTo(commentsApi.create)[0]?.body).not.toHaveProperty("fallback");
  });
});

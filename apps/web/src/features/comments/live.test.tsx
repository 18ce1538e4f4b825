import { type Asset, type AssetListInput, assetsApi, type Comment, CommentPage, commentsApi } from "@hangar/contract";
import { screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type AssetListView, useAsset, useAssetList, useWorkspaceTags } from "../../entities/asset";
import { type ApiCall, installFakeApi } from "../../test/fake-api";
import { aComment, anAsset, anId, BOARD_ID, WORKSPACE_ID } from "../../test/fixtures";
import { renderWithApp } from "../../test/render";
import { useReplies, useTopComments } from "./api";
import { useLiveAsset } from "./live";

/**
 * Issue 28: a live event refetches what it names, not every grid of the workspace. The scene is the
 * viewer over the grids: three grids (everything, a board, "has open comments"), the tag suggestions,
 * the shown asset A with its comments and one open thread, and the events arriving on the workspace's
 * stream (an EventSource the test drives). What is refetched is counted as the API calls made.
 */
const api = installFakeApi();

/** The workspace's event stream, as the browser's EventSource would deliver it. */
class FakeEventSource extends EventTarget {
  static last: FakeEventSource | null = null;
  constructor(readonly url: string) {
    super();
    FakeEventSource.last = this;
  }
  close() {}
  send(type: string, data: unknown = {}) {
    this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}
beforeEach(() => {
  FakeEventSource.last = null;
  vi.stubGlobal("EventSource", FakeEventSource);
});

const all: AssetListView = { boardId: null, search: "", order: "-date_uploaded", filters: {} };
const board: AssetListView = { ...all, boardId: BOARD_ID };
const open: AssetListView = { ...all, filters: { has_open_comments: true } };

function Scene({ asset, threadId }: { asset: Asset; threadId: string }) {
  const source = { workspaceId: WORKSPACE_ID, asset, shared: null };
  const grids = [useAssetList(WORKSPACE_ID, all), useAssetList(WORKSPACE_ID, board), useAssetList(WORKSPACE_ID, open)];
  useWorkspaceTags(WORKSPACE_ID);
  const shown = useAsset(WORKSPACE_ID, asset.id);
  useTopComments(source, "all");
  useReplies(source, threadId, true);
  useLiveAsset(WORKSPACE_ID, asset.id);
  const cards = grids.map((g) =>
    (g.data?.pages ?? [])
      .flatMap((p) => p.data)
      .map((a) => `${a.name}:${a.open_comment_count}`)
      .join(","),
  );
  return (
    <>
      <p data-testid="grids">{cards.join(" | ")}</p>
      <p data-testid="shown">{shown.data ? `${shown.data.name}:${shown.data.open_comment_count}` : ""}</p>
    </>
  );
}

/** Serves the scene; `assets` is the server's state, which a test changes before it sends an event. */
function serve() {
  const a = anAsset({ name: "a.jpg" });
  const b = anAsset({ name: "b.jpg" });
  const assets = new Map([
    [a.id, a],
    [b.id, b],
  ]);
  const thread = aComment({ object_id: a.id });
  api.on(assetsApi.list, (call) => {
    const body = call.body as AssetListInput;
    const data = body.has_open_comments
      ? [...assets.values()].filter((x) => x.open_comment_count > 0)
      : body.board_id
        ? [assets.get(b.id)!]
        : [...assets.values()];
    return {
      data,
      pagination: {
        page: 1,
        page_size: 10,
        total_count: data.length,
        total_pages: 1,
        has_more: false,
        count_is_estimate: false,
        next_cursor: null,
      },
    };
  });
  api.on(assetsApi.get, (call) => assets.get(call.params.assetId!)!);
  api.on(assetsApi.tags, []);
  const page = (results: Comment[]) => CommentPage.parse({ results, next_cursor: null, count: results.length });
  api.on(commentsApi.list, (call) => page(call.query.get("parent_id") ? [] : [thread]));
  return { a, b, assets, thread };
}

/** The calls made while `act` runs and until nothing is fetching, by what they asked for. */
async function callsDuring(queryClient: { isFetching(): number }, act: () => unknown, until: () => void) {
  const before = api.calls.length;
  await act();
  await waitFor(until);
  await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  return api.calls.slice(before).map(describeCall).sort();
}
function describeCall(call: ApiCall): string {
  if (call.route === assetsApi.list) {
    const body = call.body as AssetListInput;
    return body.has_open_comments ? "grid:open" : body.board_id ? "grid:board" : "grid:all";
  }
  if (call.route === assetsApi.get) return `asset:${call.params.assetId}`;
  if (call.route === commentsApi.list) return call.query.get("parent_id") ? "replies" : "comments";
  return call.path;
}

async function setUp() {
  const server = serve();
  const view = renderWithApp(<Scene asset={server.a} threadId={server.thread.id} />);
  await waitFor(() => expect(screen.getByTestId("grids").textContent).toBe("a.jpg:0,b.jpg:0 | b.jpg:0 | "));
  await waitFor(() => expect(view.queryClient.isFetching()).toBe(0));
  const stream = FakeEventSource.last!;
  stream.send("ready");
  const comment = (type: string, assetId: string, parentId: string | null, threadId = anId()) =>
    stream.send(type, { asset_id: assetId, comment_id: anId(), thread_id: threadId, parent_id: parentId });
  return { ...server, ...view, stream, comment };
}

const grids = () => screen.getByTestId("grids").textContent;

describe("live events refetch what they name (issue 28)", () => {
  it("a reply on the shown asset: its comments and that thread, not the asset or any grid", async () => {
    const s = await setUp();
    const calls = await callsDuring(
      s.queryClient,
      () => s.comment("comment.created", s.a.id, s.thread.id, s.thread.id),
      () => expect(api.callsTo(commentsApi.list).filter((c) => c.query.get("parent_id")).length).toBe(2),
    );
    expect(calls).toEqual(["comments", "replies"]);
  });

  it("an edited comment: the asset's comments only", async () => {
    const s = await setUp();
    const calls = await callsDuring(
      s.queryClient,
      () => s.comment("comment.updated", s.a.id, null, s.thread.id),
      () => expect(api.callsTo(commentsApi.list).length).toBe(3),
    );
    expect(calls).toEqual(["comments"]);
  });

  it("a new thread on the shown asset: the asset once, its card updated in place, only the open-comments grid refetched", async () => {
    const s = await setUp();
    s.assets.set(s.a.id, { ...s.a, open_comment_count: 1 });
    const calls = await callsDuring(
      s.queryClient,
      () => s.comment("comment.created", s.a.id, null),
      () => expect(grids()).toBe("a.jpg:1,b.jpg:0 | b.jpg:0 | a.jpg:1"),
    );
    expect(calls).toEqual([`asset:${s.a.id}`, "comments", "grid:open"]);
    expect(screen.getByTestId("shown").textContent).toBe("a.jpg:1");
  });

  it("a thread resolved on another asset: that asset's card in every grid that shows it, not the shown asset's queries", async () => {
    const s = await setUp();
    s.assets.set(s.b.id, { ...s.b, open_comment_count: 2 });
    const calls = await callsDuring(
      s.queryClient,
      () => s.comment("comment.resolved", s.b.id, null),
      () => expect(grids()).toBe("a.jpg:0,b.jpg:2 | b.jpg:2 | b.jpg:2"),
    );
    expect(calls).toEqual([`asset:${s.b.id}`, "grid:open"]);
  });

  it("a thread on an asset no grid shows: nothing is fetched but the open-comments grid", async () => {
    const s = await setUp();
    const calls = await callsDuring(
      s.queryClient,
      () => s.comment("comment.deleted", anId(), null),
      () => expect(api.callsTo(assetsApi.list).length).toBe(4),
    );
    expect(calls).toEqual(["grid:open"]);
  });

  it("processing ended: the listings and tags (the asset joins them), no comments", async () => {
    const s = await setUp();
    const c = anAsset({ name: "c.jpg" });
    s.assets.set(c.id, c);
    const calls = await callsDuring(
      s.queryClient,
      () => s.stream.send("asset.status", { asset_id: c.id, status: "COMPLETED" }),
      () => expect(grids()).toBe("a.jpg:0,b.jpg:0,c.jpg:0 | b.jpg:0 | "),
    );
    expect(calls).toEqual([
      "/workspaces/11111111-1111-4111-8111-111111111111/tags",
      "grid:all",
      "grid:board",
      "grid:open",
    ]);
  });

  it("a status on the way (processing) of an asset shown nowhere: nothing", async () => {
    const s = await setUp();
    s.stream.send("asset.status", { asset_id: anId(), status: "processing" });
    // The shown asset's own status event after it: once that one is answered, the first was heard too.
    s.assets.set(s.a.id, { ...s.a, name: "a2.jpg" });
    const calls = await callsDuring(
      s.queryClient,
      () => s.stream.send("asset.status", { asset_id: s.a.id, status: "processing" }),
      () => expect(grids()).toBe("a2.jpg:0,b.jpg:0 | b.jpg:0 | "),
    );
    expect(calls).toEqual([`asset:${s.a.id}`]);
  });

  it("a version change (issue 29): the shown asset, its comments and the listings", async () => {
    const s = await setUp();
    const calls = await callsDuring(
      s.queryClient,
      () => s.stream.send("asset.version", { asset_id: s.a.id, current_version_id: anId(), version_count: 2 }),
      () => expect(api.callsTo(assetsApi.list).length).toBe(6),
    );
    expect(calls).toEqual([
      "/workspaces/11111111-1111-4111-8111-111111111111/tags",
      `asset:${s.a.id}`,
      "comments",
      "grid:all",
      "grid:board",
      "grid:open",
      "replies",
    ]);
  });

  it("resync (events may have been missed): the shown asset, its comments and the listings", async () => {
    const s = await setUp();
    const calls = await callsDuring(
      s.queryClient,
      () => s.stream.send("resync"),
      () => expect(api.callsTo(assetsApi.list).length).toBe(6),
    );
    expect(calls).toEqual([
      "/workspaces/11111111-1111-4111-8111-111111111111/tags",
      `asset:${s.a.id}`,
      "comments",
      "grid:all",
      "grid:board",
      "grid:open",
      "replies",
    ]);
  });
});

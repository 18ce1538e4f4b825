import { type Asset, type Comment, CommentPage, commentsApi, membersApi } from "@hangar/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { useRef, useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { installFakeApi } from "../../test/fake-api";
import { aComment, anAsset, anId, WORKSPACE_ID } from "../../test/fixtures";
import { renderWithApp } from "../../test/render";
import { AnnotationLayer } from "./annotation-layer";
import { CommentDrawer } from "./comment-drawer";
import { ReviewProvider } from "./review-context";

/** Comments follow the version shown (issue 29), with the drawer's All versions switch. */
const api = installFakeApi();

const V1 = { id: anId(), number: 1 };
const V2 = { id: anId(), number: 2 };
const page = (results: Comment[]) => CommentPage.parse({ results, next_cursor: null, count: results.length });

const onV1 = aComment({ text: "Headline too low", version: V1, annotation_type: "POINT", x: 30, y: 55 });
const onV2 = aComment({ text: "Sun reads better", version: V2, annotation_type: "POINT", x: 70, y: 30 });

/** The server's answer: one version's threads, or every version's with all_versions. */
function serve() {
  api.on(membersApi.list, []);
  api.on(commentsApi.list, (call) => {
    if (call.query.get("all_versions") === "true") return page([onV1, onV2]);
    const id = call.query.get("version_id");
    return page([onV1, onV2].filter((c) => c.version?.id === id));
  });
  api.on(commentsApi.create, (call) => {
    const body = call.body as { text: string; version_id?: string };
    return aComment({ text: body.text, version: body.version_id === V1.id ? V1 : V2 });
  });
}

function Review(props: { asset: Asset; version: { id: string; number: number }; showVersion?: (n: number) => void }) {
  const [visibleId, setVisibleId] = useState<string | null>(null);
  const escapeBusy = useRef(false);
  return (
    <ReviewProvider
      workspaceId={WORKSPACE_ID}
      asset={props.asset}
      boardId={null}
      currentPage={1}
      goToPage={() => {}}
      visibleId={visibleId}
      setVisibleId={setVisibleId}
      escapeBusy={escapeBusy}
      version={props.version}
      showVersion={props.showVersion}
    >
      <div style={{ position: "relative", width: 400, height: 300 }}>
        <AnnotationLayer page={null} />
      </div>
      <CommentDrawer />
    </ReviewProvider>
  );
}

const poster = anAsset({ version_count: 2, current_version: V2 });

describe("comments per version", () => {
  it("lists the shown version's threads and draws only its annotations", async () => {
    serve();
    renderWithApp(<Review asset={poster} version={V1} />);
    expect(await screen.findByText("Headline too low")).toBeTruthy();
    expect(screen.queryByText("Sun reads better")).toBeNull();
    expect(api.callsTo(commentsApi.list)[0]?.query.get("version_id")).toBe(V1.id);
    expect(screen.getAllByTestId("annotation-marker")).toHaveLength(1);
  });

  it("makes a new thread on the shown version", async () => {
    serve();
    const { user } = renderWithApp(<Review asset={poster} version={V1} />);
    await screen.findByText("Headline too low");
    await user.type(screen.getByRole("textbox", { name: "Add a comment…" }), "Move it up{Enter}");
    await waitFor(() => expect(api.callsTo(commentsApi.create)).toHaveLength(1));
    expect(api.callsTo(commentsApi.create)[0]?.body).toMatchObject({ text: "Move it up", version_id: V1.id });
  });

  it("All versions lists every version's threads, each with its version; markers stay the shown one's", async () => {
    serve();
    const showVersion = vi.fn();
    const { user } = renderWithApp(<Review asset={poster} version={V1} showVersion={showVersion} />);
    await screen.findByText("Headline too low");
    await user.click(screen.getByRole("switch", { name: /All versions/ }));
    expect(await screen.findByText("Sun reads better")).toBeTruthy();
    expect(api.callsTo(commentsApi.list).at(-1)?.query.get("all_versions")).toBe("true");
    expect(screen.getAllByTestId("comment-version").map((b) => b.textContent)).toEqual(["v1", "v2"]);
    expect(screen.getAllByTestId("annotation-marker")).toHaveLength(1);
    // A comment of another version shows that version.
    const thread = screen.getAllByTestId("comment-thread")[1]!;
    await user.click(within(thread).getByTestId("comment-version"));
    expect(showVersion).toHaveBeenCalledWith(2);
  });

  it("has no All versions switch for an asset of one version", async () => {
    serve();
    renderWithApp(<Review asset={anAsset({ version_count: 1, current_version: V1 })} version={V1} />);
    await screen.findByText("Headline too low");
    expect(screen.queryByTestId("all-versions-switch")).toBeNull();
  });
});

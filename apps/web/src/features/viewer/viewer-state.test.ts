import type { Asset } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { INITIAL_VIEWER_STATE, initialTab, pageBounds, previewKind, viewerReducer, visibleTabs } from "./viewer-state";

type Kind = Pick<Asset, "file_type" | "file_extension" | "pages">;
const page = (number: number) => ({ number, url: `/p/${number}.jpg`, width: 100, height: 140, label: null });
const pdf: Kind = { file_type: "DOCUMENT", file_extension: "pdf", pages: [page(1), page(2)] };
const photo: Kind = { file_type: "IMAGE", file_extension: "jpg", pages: [] };
const clip: Kind = { file_type: "VIDEO", file_extension: "mp4", pages: [] };

describe("viewer state (spec 02 §2, §4)", () => {
  it("starts on page 1, the comments tab, no annotation", () => {
    expect(INITIAL_VIEWER_STATE).toEqual({ currentPage: 1, activeTab: "comments", visibleAnnotationId: null });
  });

  it("toggles the active tab off when clicked again, and switches to another", () => {
    let s = viewerReducer(INITIAL_VIEWER_STATE, { type: "toggleTab", tab: "details" });
    expect(s.activeTab).toBe("details");
    s = viewerReducer(s, { type: "toggleTab", tab: "details" });
    expect(s.activeTab).toBeNull();
    s = viewerReducer(s, { type: "toggleTab", tab: "boards" });
    expect(s.activeTab).toBe("boards");
    expect(viewerReducer(s, { type: "openTab", tab: "boards" }).activeTab).toBe("boards");
  });

  it("keeps the page within 1..pageCount", () => {
    let s = viewerReducer(INITIAL_VIEWER_STATE, { type: "previousPage" });
    expect(s.currentPage).toBe(1);
    s = viewerReducer(s, { type: "goToPage", page: 80, pageCount: 117 });
    expect(s.currentPage).toBe(80);
    s = viewerReducer(s, { type: "goToPage", page: 500, pageCount: 117 });
    expect(s.currentPage).toBe(117);
    s = viewerReducer(s, { type: "nextPage", pageCount: 117 });
    expect(s.currentPage).toBe(117);
    s = viewerReducer(s, { type: "goToPage", page: 0, pageCount: 117 });
    expect(s.currentPage).toBe(1);
    s = viewerReducer(s, { type: "goToPage", page: Number.NaN, pageCount: 117 });
    expect(s.currentPage).toBe(1);
    expect(pageBounds(1, 117)).toEqual({ canPrevious: false, canNext: true });
    expect(pageBounds(117, 117)).toEqual({ canPrevious: true, canNext: false });
    expect(pageBounds(1, 1)).toEqual({ canPrevious: false, canNext: false });
  });

  it("toggles the visible annotation", () => {
    let s = viewerReducer(INITIAL_VIEWER_STATE, { type: "toggleAnnotation", id: "a" });
    expect(s.visibleAnnotationId).toBe("a");
    s = viewerReducer(s, { type: "toggleAnnotation", id: "a" });
    expect(s.visibleAnnotationId).toBeNull();
  });

  it("resets page, tab and annotation on close", () => {
    let s = viewerReducer(INITIAL_VIEWER_STATE, { type: "goToPage", page: 5, pageCount: 9 });
    s = viewerReducer(s, { type: "toggleTab", tab: "details" });
    s = viewerReducer(s, { type: "toggleAnnotation", id: "x" });
    expect(viewerReducer(s, { type: "close" })).toEqual(INITIAL_VIEWER_STATE);
  });
});

describe("preview and tabs by asset", () => {
  it("picks the video player, the document viewer or the image preview", () => {
    expect(previewKind(clip)).toBe("video");
    expect(previewKind(pdf)).toBe("document");
    expect(previewKind({ ...pdf, pages: [] })).toBe("image");
    expect(previewKind({ file_type: "OTHER", file_extension: "TXT", pages: [page(1)] })).toBe("document");
    expect(previewKind(photo)).toBe("image");
  });

  it("shows pages only for documents with pages, boards never in shared view", () => {
    expect(visibleTabs(photo)).toEqual(["comments", "details", "fields", "boards"]);
    expect(visibleTabs(pdf)).toEqual(["comments", "pages", "details", "fields", "boards"]);
    expect(visibleTabs(pdf, { shared: true, showComments: false, showFields: false })).toEqual(["pages", "details"]);
    expect(initialTab({ shared: true, showComments: false })).toBe("details");
    expect(initialTab({ shared: true })).toBe("comments");
    expect(initialTab()).toBe("comments");
  });
});

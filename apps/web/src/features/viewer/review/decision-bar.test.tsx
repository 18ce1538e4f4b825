import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { anId } from "../../../test/fixtures";
import { renderWithApp } from "../../../test/render";
import { DecisionBar, type DecisionBarModel } from "./decision-bar";
import type { DecisionView } from "./decision-state";

/** The viewer's decision bar (issue 30): what it shows and what each button sends. */
function view(overrides: Partial<DecisionView> = {}): DecisionView {
  return {
    reviewId: anId(),
    reviewTitle: "Spring campaign",
    status: "in_review",
    mine: null,
    awaitingMe: true,
    blocked: null,
    versionId: anId(),
    nextAssetId: anId(),
    waitingCount: 2,
    ...overrides,
  };
}

function show(v: DecisionView, opts: { compact?: boolean; decide?: DecisionBarModel["decide"] } = {}) {
  const model: DecisionBarModel = {
    view: v,
    pending: null,
    decide: vi.fn(opts.decide ?? (() => Promise.resolve())),
    next: vi.fn(),
  };
  renderWithApp(<DecisionBar model={model} compact={opts.compact ?? false} />);
  return model;
}

describe("decision bar", () => {
  it("shows the review, the asset's status and that my decision is awaited", () => {
    show(view());
    expect(screen.getByTestId("decision-review-title").textContent).toContain("Spring campaign");
    expect(screen.getByText("In review")).toBeTruthy();
    expect(screen.getByTestId("decision-mine").textContent).toContain("Awaiting your decision · 2 left to decide");
  });

  it("Approve decides at once, without a note", async () => {
    const model = show(view());
    await userEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(model.decide).toHaveBeenCalledWith("approved", "");
    expect(screen.queryByTestId("decision-note")).toBeNull();
  });

  it("Request changes asks for a note, sends it, and closes once recorded", async () => {
    const model = show(view());
    await userEvent.click(screen.getByRole("button", { name: "Request changes" }));
    const note = await screen.findByTestId("decision-note");
    await userEvent.type(note, "Logo too small");
    await userEvent.click(screen.getByTestId("decision-note-submit"));
    expect(model.decide).toHaveBeenCalledWith("changes_requested", "Logo too small");
    await waitFor(() => expect(screen.queryByTestId("decision-note")).toBeNull());
  });

  it("keeps the note dialog and its text when the decision is refused", async () => {
    const refusal = Promise.reject(new Error("refused"));
    refusal.catch(() => undefined);
    const model = show(view(), { decide: () => refusal });
    await userEvent.click(screen.getByRole("button", { name: "Reject" }));
    await userEvent.type(await screen.findByTestId("decision-note"), "Wrong format");
    await userEvent.click(screen.getByTestId("decision-note-submit"));
    expect(model.decide).toHaveBeenCalledWith("rejected", "Wrong format");
    // The bar's own handler was attached first: once this one runs, the refusal has been handled.
    await act(() => refusal.catch(() => undefined));
    expect(screen.getByTestId("decision-note")).toHaveProperty("value", "Wrong format");
  });

  it("marks my decision pressed and says it", () => {
    show(view({ mine: { decision: "approved_with_changes", note: "Crop", decidedAt: new Date().toISOString() } }));
    expect(screen.getByRole("button", { name: "Approve with changes" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("button", { name: "Approve" }).getAttribute("aria-pressed")).toBe("false");
    expect(screen.getByTestId("decision-mine").textContent).toContain("You: Approved with changes");
  });

  it("shows why instead of the buttons when deciding is not possible now", () => {
    show(view({ blocked: "This review was canceled." }));
    expect(screen.getByTestId("decision-blocked").textContent).toContain("This review was canceled.");
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
  });

  it("goes to the next asset awaiting me", async () => {
    const model = show(view());
    await userEvent.click(screen.getByRole("button", { name: "Next asset in this review" }));
    expect(model.next).toHaveBeenCalledOnce();
  });

  it("has no next asset to go to when nothing else awaits me", () => {
    show(view({ nextAssetId: null }));
    expect(screen.getByTestId("review-next")).toHaveProperty("disabled", true);
  });

  it("on a phone keeps Approve a button and puts the other three in a menu", async () => {
    const model = show(view(), { compact: true });
    expect(screen.getByRole("button", { name: "Approve" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Reject" })).toBeNull();
    await userEvent.click(screen.getByTestId("decide-more"));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Reject" }));
    await userEvent.type(await screen.findByTestId("decision-note"), "No");
    await userEvent.click(screen.getByTestId("decision-note-submit"));
    expect(model.decide).toHaveBeenCalledWith("rejected", "No");
  });
});

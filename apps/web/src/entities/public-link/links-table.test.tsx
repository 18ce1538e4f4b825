import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderWithApp } from "../../test/render";
import { type LinkColumn, type LinkRowActions, LinkSubject, LinksTable } from "./links-table";

interface Row {
  id: string;
  name: string;
  uses: number;
  active: boolean;
}

const rows: Row[] = [
  { id: "a", name: "Press kit", uses: 3, active: true },
  { id: "b", name: "Launch", uses: 0, active: false },
];

const columns: [LinkColumn<Row>, ...LinkColumn<Row>[]] = [
  { header: "Shared", cell: (r) => <LinkSubject name={r.name} detail={`Board ${r.id}`} locked={r.id === "a"} /> },
  { header: "Uses", cell: (r) => `${r.uses} uses` },
];

function renderTable() {
  const setActive = vi.fn<(id: string, active: boolean) => void>();
  const remove = vi.fn<(id: string) => void>();
  const useRowActions = (r: Row): LinkRowActions => ({
    active: r.active,
    activeLabel: `${r.active ? "Disable" : "Enable"} ${r.name}`,
    updating: false,
    setActive: (active) => setActive(r.id, active),
    url: `https://hangar.example/s/${r.id}`,
    copyLabel: "Copy link",
    deleteLabel: `Delete ${r.name}`,
    deleteIcon: "×",
    deleting: r.id === "b",
    remove: () => remove(r.id),
  });
  const view = renderWithApp(
    <LinksTable
      links={rows}
      keyOf={(r) => r.id}
      testId="links"
      rowTestId="link-row"
      minWidth={700}
      columns={columns}
      useRowActions={useRowActions}
    />,
  );
  return { ...view, setActive, remove };
}

/** The viewport as the component's media query sees it. */
function viewport(phone: boolean) {
  vi.spyOn(window, "matchMedia").mockImplementation(
    (query) =>
      ({
        matches: phone && query.includes("max-width"),
        media: query,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
}

afterEach(() => vi.restoreAllMocks());

describe("links table (Settings → Share links, both kinds of link)", () => {
  it("on a desktop: the kind's columns, then Active and the row's buttons, one row per link", () => {
    viewport(false);
    renderTable();
    const table = screen.getByTestId("links");
    expect(table.tagName).toBe("TABLE");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Shared", "Uses", "Active", "Actions"]);
    const [first, second] = screen.getAllByTestId("link-row");
    expect(first?.textContent).toContain("Press kit");
    expect(first?.textContent).toContain("Board a");
    expect(first?.textContent).toContain("3 uses");
    expect(within(first!).getByLabelText("Password protected")).toBeTruthy();
    expect(within(first!).getByText("Board a").getAttribute("data-truncate")).toBe("end");
    expect(within(second!).queryByLabelText("Password protected")).toBeNull();
    expect((within(first!).getByRole("switch", { name: "Disable Press kit" }) as HTMLInputElement).checked).toBe(true);
    expect((within(second!).getByRole("switch", { name: "Enable Launch" }) as HTMLInputElement).checked).toBe(false);
  });

  it("the switch, delete and copy act on their own row's link", async () => {
    viewport(false);
    const { user, setActive, remove } = renderTable();
    // user-event puts its own clipboard in place when it is set up (in renderWithApp).
    const writeText = vi.spyOn(navigator.clipboard, "writeText");
    await user.click(screen.getByRole("switch", { name: "Enable Launch" }));
    expect(setActive).toHaveBeenCalledWith("b", true);
    await user.click(screen.getByRole("button", { name: "Delete Press kit" }));
    expect(remove).toHaveBeenCalledWith("a");
    const [first] = screen.getAllByTestId("link-row");
    await user.click(within(first!).getByRole("button", { name: "Copy link" }));
    expect(writeText).toHaveBeenCalledWith("https://hangar.example/s/a");
    expect(await screen.findByText("Link copied to clipboard")).toBeTruthy();
  });

  it("on a phone: one card per link, each cell under its header, the same controls", async () => {
    viewport(true);
    const { user, setActive } = renderTable();
    const list = screen.getByTestId("links");
    expect(list.tagName).not.toBe("TABLE");
    expect(screen.queryByRole("table")).toBeNull();
    const cards = screen.getAllByTestId("link-row");
    expect(cards).toHaveLength(2);
    expect(cards[0]?.textContent).toContain("Press kit");
    expect(within(cards[0]!).getByText("Board a").hasAttribute("data-truncate")).toBe(false);
    expect(within(cards[0]!).getByText("Uses")).toBeTruthy();
    expect(within(cards[0]!).getByText("3 uses")).toBeTruthy();
    expect(within(cards[0]!).getByText("Active")).toBeTruthy();
    await user.click(within(cards[0]!).getByRole("switch", { name: "Disable Press kit" }));
    expect(setActive).toHaveBeenCalledWith("a", false);
    expect(within(cards[1]!).getByRole("button", { name: "Delete Launch" })).toBeTruthy();
  });
});

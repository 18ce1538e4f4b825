import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation, useNavigate } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { encodeFilters, PARAM } from "../../../entities/asset";
import { useBrowseParams } from "./use-browse-params";

/**
 * The grid's state through the router (url-state.test.ts covers the encoding): what the URL says is
 * what the grid reads, each change lands in the address, and Back undoes an order or filter change
 * but not each keystroke of the search.
 */
function browse(url: string) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={["/start", url]} initialIndex={1}>
      {children}
    </MemoryRouter>
  );
  return renderHook(() => ({ browse: useBrowseParams(), location: useLocation(), navigate: useNavigate() }), {
    wrapper,
  });
}

const paramsOf = (search: string) => new URLSearchParams(search);

describe("useBrowseParams: filter state ↔ URL", () => {
  it("reads search, order and filters from the address", () => {
    const f = encodeFilters({ favorite: true, tags: { includes: ["été"] } });
    const { result } = browse(`/w/ws/b/all?q=red+boat&sort=name&f=${f}&keep=1`);
    expect(result.current.browse.params).toEqual({
      search: "red boat",
      order: "name",
      filters: { favorite: true, tags: { includes: ["été"] } },
    });
  });

  it("writes each change to the address and reads it back, keeping other parameters", () => {
    const { result } = browse("/w/ws/b/all?keep=1");
    act(() => result.current.browse.setFilters({ file_type: { includes: ["VIDEO"] } }));
    act(() => result.current.browse.setOrder("-size"));
    act(() => result.current.browse.setSearch("harbour"));

    const url = paramsOf(result.current.location.search);
    expect(url.get("keep")).toBe("1");
    expect(url.get(PARAM.order)).toBe("-size");
    expect(url.get(PARAM.search)).toBe("harbour");
    expect(url.get(PARAM.filters)).toBe(encodeFilters({ file_type: { includes: ["VIDEO"] } }));
    expect(result.current.location.pathname).toBe("/w/ws/b/all");
    expect(result.current.browse.params).toEqual({
      search: "harbour",
      order: "-size",
      filters: { file_type: { includes: ["VIDEO"] } },
    });
  });

  it("lets Back undo a filter or order change, but not the search typed after it", () => {
    const { result } = browse("/w/ws/b/all");
    act(() => result.current.browse.setFilters({ favorite: true }));
    act(() => result.current.browse.setSearch("h"));
    act(() => result.current.browse.setSearch("ha"));
    act(() => result.current.navigate(-1));
    // One step back is before the filter: the search typed on that entry went with it.
    expect(result.current.browse.params).toEqual({ search: "", order: "-date_uploaded", filters: {} });
    expect(result.current.location.pathname).toBe("/w/ws/b/all");

    act(() => result.current.navigate(1));
    expect(result.current.browse.params.search).toBe("ha");
    act(() => result.current.browse.setOrder("name"));
    act(() => result.current.navigate(-1));
    expect(result.current.browse.params).toEqual({
      search: "ha",
      order: "-date_uploaded",
      filters: { favorite: true },
    });
  });

  it("clears the search and the filters in one step, keeping the order", () => {
    const f = encodeFilters({ favorite: true });
    const { result } = browse(`/w/ws/b/all?q=boat&sort=name&f=${f}`);
    act(() => result.current.browse.clearSearchAndFilters());
    expect(result.current.location.search).toBe("?sort=name");
    act(() => result.current.navigate(-1));
    expect(result.current.browse.params).toEqual({ search: "boat", order: "name", filters: { favorite: true } });
  });

  it("ignores a broken f in the address instead of failing", () => {
    const { result } = browse("/w/ws/b/all?f=%%%&sort=bogus");
    expect(result.current.browse.params).toEqual({ search: "", order: "-date_uploaded", filters: {} });
  });
});

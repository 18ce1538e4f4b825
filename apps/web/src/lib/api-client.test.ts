import { assetsApi, boardsApi, workspacesApi } from "@hangar/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, callApi, clearCsrfToken, INVALID_RESPONSE, routeUrl } from "./api-client";

const WS = "8f0c6a52-3c55-4d8e-9d59-0a4a3c1f2b10";
const BOARD = "1b2c3d4e-5f60-4172-8394-a5b6c7d8e9f0";
const workspace = {
  id: WS,
  name: "Studio",
  user_role: "ADMIN",
  created_at: "2026-01-01T00:00:00.000Z",
  member_count: 1,
  abilities: { upload: true, admin: true, invite: true, rename: true, delete: true },
};

type Call = { url: string; init: RequestInit };

/** Answers each fetch in turn with the given JSON bodies and statuses, recording the calls. */
function stubFetch(...answers: Array<{ status?: number; body: unknown }>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const a = answers.shift() ?? { body: {} };
      return new Response(JSON.stringify(a.body), {
        status: a.status ?? 200,
        headers: { "content-type": "application/json" },
      });
    }),
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  clearCsrfToken();
});

describe("callApi", () => {
  it("builds the URL from the route's path, its encoded params and its query", async () => {
    const calls = stubFetch({ body: [] });
    await callApi(boardsApi.list, { params: { id: WS }, query: { recursive: "true" } });
    expect(calls[0]?.url).toBe(`/api/v1/workspaces/${WS}/boards?recursive=true`);
    expect(calls[0]?.init.method).toBe("GET");
    expect(routeUrl(boardsApi.update, { id: "a/b", boardId: BOARD })).toBe(`/workspaces/a%2Fb/boards/${BOARD}`);
    expect(() => routeUrl(boardsApi.update, { id: WS })).toThrow(/boardId/);
  });

  it("sends mutations with the route's method, a JSON body and the CSRF token", async () => {
    const calls = stubFetch({ body: { data: { csrftoken: "tok" } } }, { body: workspace });
    const answer = await callApi(workspacesApi.rename, { params: { id: WS }, body: { name: "Studio" } });
    expect(answer.name).toBe("Studio");
    expect(calls[0]?.url).toBe("/api/v1/users/set-csrf-token");
    expect(calls[1]?.url).toBe(`/api/v1/workspaces/${WS}`);
    expect(calls[1]?.init.method).toBe("PUT");
    expect(calls[1]?.init.body).toBe(JSON.stringify({ name: "Studio" }));
    expect((calls[1]?.init.headers as Record<string, string> | undefined)?.["X-CSRFToken"]).toBe("tok");
  });

  it("refetches the CSRF token and retries once when the server refuses it", async () => {
    const calls = stubFetch(
      { body: { data: { csrftoken: "old" } } },
      { status: 403, body: { detail: "CSRF token missing or incorrect.", code: "CSRF_FAILED" } },
      { body: { data: { csrftoken: "new" } } },
      { body: workspace },
    );
    await callApi(workspacesApi.create, { body: { name: "Studio" } });
    expect(calls.map((c) => c.url)).toEqual([
      "/api/v1/users/set-csrf-token",
      "/api/v1/workspaces",
      "/api/v1/users/set-csrf-token",
      "/api/v1/workspaces",
    ]);
  });

  it("throws the server's detail, or the fallback when there is none", async () => {
    stubFetch({ status: 404, body: { detail: "Not found.", code: "NOT_FOUND" } });
    await expect(callApi(workspacesApi.get, { params: { id: WS }, fallback: "x" })).rejects.toMatchObject({
      status: 404,
      detail: "Not found.",
    });
    stubFetch({ status: 500, body: {} });
    await expect(callApi(workspacesApi.get, { params: { id: WS }, fallback: "Failed to fetch" })).rejects.toThrow(
      "Failed to fetch",
    );
  });

  it("in development, rejects an answer that does not match the route's schema", async () => {
    expect(import.meta.env.DEV).toBe(true);
    stubFetch({ body: { id: WS } });
    const call = callApi(assetsApi.tags, { params: { id: WS } });
    await expect(call).rejects.toBeInstanceOf(ApiError);
    await expect(call).rejects.toThrow(INVALID_RESPONSE);
    stubFetch({ body: [{ name: "sky", count: 2 }] });
    await expect(callApi(assetsApi.tags, { params: { id: WS } })).resolves.toEqual([{ name: "sky", count: 2 }]);
  });
});

import { randomUUID } from "node:crypto";
import { AssetListBody, type AssetListInput } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv } from "../../../test/harness.ts";
import { assetViewRepo } from "../assets/index.ts";
import { facetsCond, listingOrder, listingWhere, matchArms, matchWhere } from "./filters-repo.ts";
import { seedListingFixture } from "./listing.fixture.ts";
import { boundedCountSql, pageIdsSql, probePageIds } from "./repo.ts";

/**
 * The conditions the listing adds or splits for the statements that find every match (the probe and
 * the count): the facets index's (facetsCond) and the AI/manual arms (matchArms). Each must change no
 * result: checked against the plain statement and the fixture's known subsets.
 */
let env: TestEnv;
let ws: string;
let admin: Client;
const A: Record<string, string> = {};

beforeAll(async () => {
  env = await createTestEnv({}, { work: false });
  const f = await seedListingFixture(env);
  ws = f.ws;
  admin = f.admin;
  Object.assign(A, f.A);
});
afterAll(() => env.close());

async function names(body: Record<string, unknown>) {
  const res = await admin.post(`/workspaces/${ws}/assets`, { page_size: 100, ...body });
  expect(res.statusCode, res.body).toBe(200);
  const byId = Object.fromEntries(Object.entries(A).map(([k, v]) => [v, k]));
  return (res.json().data as Array<{ id: string }>).map((a) => byId[a.id]).sort();
}

describe("listing: facets and arms", () => {
  it("adds the facets index's condition to combined tags, labels, colours and types, changing no result", async () => {
    const scope = { workspaceId: ws, userId: randomUUID() };
    const cases: Array<[AssetListInput, string[]]> = [
      [{ tags: { includes: ["Travel"] }, file_type: { includes: ["IMAGE"] } }, ["beach", "cafe"]],
      [{ tags: { includes: ["travel"] }, file_type: { includes: ["VIDEO"] } }, []],
      [
        { colors: { simplified_colors: { includes: ["red"] } }, file_type: { includes: ["VIDEO", "IMAGE"] } },
        ["cafe", "clip"],
      ],
      [{ ai_tags: { includes: ["CUP"] }, file_type: { includes: ["IMAGE", "OTHER", "DOCUMENT"] } }, ["cafe", "notes"]],
      [{ ai_tags: { includes: ["cup"], ai_only: true }, tags: { includes: ["food"] } }, ["cafe"]],
      [
        { ai_tags: { includes: ["cup"], manual_only: true }, colors: { simplified_colors: { includes: ["white"] } } },
        ["notes"],
      ],
      [
        {
          tags: { includes: ["work"] },
          colors: { simplified_colors: { includes: ["red"] } },
          file_type: { includes: ["DOCUMENT"] },
        },
        [],
      ],
    ];
    const db = env.rt.db;
    const ids = async (page: Parameters<typeof assetViewRepo.rows>[1]) =>
      (await assetViewRepo.rows(db, page, scope.userId)).map((r) => r.id);
    for (const [input, want] of cases) {
      const body = AssetListBody.parse({ ...input, page_size: 100 });
      expect(facetsCond(body), JSON.stringify(input)).not.toBeNull();
      const plain = await ids(pageIdsSql(listingWhere(body, scope), listingOrder(body.order_by), 101, 0));
      expect(await ids(pageIdsSql(matchWhere(body, scope), listingOrder(body.order_by), 101, 0))).toEqual(plain);
      expect(await ids(probePageIds(body, scope, 101, 0))).toEqual(plain);
      expect(await names(input as Record<string, unknown>), JSON.stringify(input)).toEqual(want);
    }
    // One facet alone has its own index: no facets condition.
    expect(facetsCond(AssetListBody.parse({ tags: { includes: ["travel"] } }))).toBeNull();
  });

  it("splits qualified AI tag includes into an AI arm and a manual arm for the probe and the count, changing no result", async () => {
    const scope = { workspaceId: ws, userId: randomUUID() };
    const cases: Array<[AssetListInput, string[]]> = [
      [{ ai_tags: { includes: ["cup"], min_confidence: 0.8 } }, ["cafe", "notes"]],
      [{ ai_tags: { includes: ["cup", "sea"], tag_types: ["object"] } }, ["cafe", "notes"]],
      [{ ai_tags: { includes: ["sea"], min_confidence: 0.7 } }, []],
      [
        { ai_tags: { includes: ["travel"], min_confidence: 0.99 }, file_type: { includes: ["IMAGE"] } },
        ["beach", "cafe"],
      ],
    ];
    const db = env.rt.db;
    const ids = async (page: Parameters<typeof assetViewRepo.rows>[1]) =>
      (await assetViewRepo.rows(db, page, scope.userId)).map((r) => r.id);
    for (const [input, want] of cases) {
      const body = AssetListBody.parse({ ...input, page_size: 100 });
      const label = JSON.stringify(input);
      expect(matchArms(body, scope), label).toHaveLength(2);
      const plain = await ids(pageIdsSql(listingWhere(body, scope), listingOrder(body.order_by), 101, 0));
      expect(plain, label).toHaveLength(want.length);
      expect(await ids(probePageIds(body, scope, 101, 0)), label).toEqual(plain);
      const counted = await boundedCountSql(matchArms(body, scope)).execute(db);
      expect(counted.rows[0]!.n, label).toBe(want.length);
      expect(await names(input as Record<string, unknown>), label).toEqual(want);
    }
    // Unqualified, AI-only, manual-only or with excludes: one arm.
    for (const ai_tags of [
      { includes: ["cup"] },
      { includes: ["cup"], ai_only: true, min_confidence: 0.5 },
      { includes: ["cup"], excludes: ["sea"], min_confidence: 0.5 },
    ])
      expect(matchArms(AssetListBody.parse({ ai_tags }), scope)).toHaveLength(1);
  });
});

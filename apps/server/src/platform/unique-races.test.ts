import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  createTestEnv,
  linkToken,
  signedInUser,
  type TestEnv,
  uniqueEmail,
  waitForOutboxMail,
  workspaceWith,
} from "../../test/harness.ts";

/**
 * Issue 27: requests that race on a unique constraint answer as the sequential case does (409 with
 * the same text, or the same row to both), never a 500. Each case fires K requests at once.
 */
const K = 8;
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

const all = <T>(f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: K }, (_, i) => f(i)));
/** One won, every other answered exactly as a request made after it does. */
function oneWins(answers: LightMyRequestResponse[], won: number, sequential: LightMyRequestResponse) {
  const bodies = answers.map((r) => `${r.statusCode} ${r.body}`);
  expect(
    answers.filter((r) => r.statusCode === won),
    bodies.join("\n"),
  ).toHaveLength(1);
  const others = answers.filter((r) => r.statusCode !== won);
  expect(others.map((r) => [r.statusCode, r.json().detail])).toEqual(
    others.map(() => [sequential.statusCode, sequential.json().detail]),
  );
}

async function workspace() {
  const w = await workspaceWith(env, ["EDITOR"]);
  await w.admin.client.fetchCsrf();
  return { ws: w.ws.id, c: w.admin.client, w };
}
async function asset(ws: string) {
  const row = await env.rt.db
    .insertInto("assets")
    .values({ workspace_id: ws, name: "hero.jpg", status: "COMPLETED", is_temp: false, file_type: "IMAGE" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
/** The mails to an address once `n` have been delivered (the job worker sends them). */
async function mailsTo(to: string, n: number) {
  for (;;) {
    const rows = await env.rt.db.selectFrom("mail_outbox").select("text_body").where("to_address", "=", to).execute();
    if (rows.length >= n) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
}
/** Waits until `n` inserts into `table` wait on a lock (a unique index entry another transaction holds). */
async function waitersOn(table: string, n: number) {
  for (;;) {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE wait_event_type = 'Lock' AND query ILIKE ${`insert into "${table}"%`}`.execute(env.rt.db);
    if (rows[0]!.n >= n) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
const field = async (c: Client, ws: string, title: string, field_type = "SINGLE_SELECT") =>
  c.post(`/workspaces/${ws}/fields`, { title, field_type });

describe("unique-constraint races answer as the sequential case (issue 27)", () => {
  it("fields created with one title at once: one 201, the rest 409 'exists already'", async () => {
    const { ws, c } = await workspace();
    const answers = await all(() => field(c, ws, "Status"));
    oneWins(answers, 201, await field(c, ws, "Status"));
    expect((await field(c, ws, "Status")).json().detail).toBe('A field named "Status" exists already.');
  });

  it("fields created while another holds the title uncommitted: every one waits at the index, then 409", async () => {
    // The race made certain: a transaction holds "Status" uncommitted, so each request's check finds
    // nothing and its insert waits on the unique index; the holder commits and every insert loses.
    const { ws, c } = await workspace();
    let pending: Promise<LightMyRequestResponse[]> | undefined;
    await env.rt.db.transaction().execute(async (tx) => {
      await tx
        .insertInto("custom_fields")
        .values({ workspace_id: ws, title: "Status", field_type: "TEXT", position: 0 })
        .execute();
      pending = all(() => field(c, ws, "Status"));
      await waitersOn("custom_fields", K);
    });
    const answers = await pending!;
    expect(answers.map((r) => [r.statusCode, r.json().detail])).toEqual(
      answers.map(() => [409, 'A field named "Status" exists already.']),
    );
  });

  it("fields renamed to one title at once: one 200, the rest 409", async () => {
    const { ws, c } = await workspace();
    const ids = await all(async (i) => (await field(c, ws, `F${i}`)).json().id as string);
    const answers = await all((i) => c.put(`/workspaces/${ws}/fields/${ids[i]}`, { title: "Same" }));
    const loser = ids[(answers.findIndex((r) => r.statusCode === 200) + 1) % K];
    oneWins(answers, 200, await c.put(`/workspaces/${ws}/fields/${loser}`, { title: "Same" }));
  });

  it("options added with one label at once: one 201, the rest 409 'has an option'", async () => {
    const { ws, c } = await workspace();
    const f = (await field(c, ws, "Stage")).json().id as string;
    const add = () => c.post(`/workspaces/${ws}/custom-fields/${f}/options`, { label: "Done", color: "#2f9e44" });
    const answers = await all(add);
    const again = await add();
    oneWins(answers, 201, again);
    expect(again.json().detail).toBe('The field has an option "Done" already.');
  });

  it("options renamed to one label at once: one 200, the rest 409", async () => {
    const { ws, c } = await workspace();
    const f = (await field(c, ws, "Stage")).json().id as string;
    const opts = await all(
      async (i) =>
        (await c.post(`/workspaces/${ws}/custom-fields/${f}/options`, { label: `O${i}`, color: "#2f9e44" })).json()
          .id as string,
    );
    const rename = (i: number) => c.put(`/workspaces/${ws}/custom-fields/${f}/options/${opts[i]}`, { label: "Done" });
    const answers = await all(rename);
    const winner = answers.findIndex((r) => r.statusCode === 200);
    oneWins(answers, 200, await rename((winner + 1) % K));
  });

  it("a share link asked for at once: every answer is the same link", async () => {
    const { ws, c } = await workspace();
    const board = (await c.post(`/workspaces/${ws}/boards`, { name: "Launch" })).json().id as string;
    const answers = await all(() => c.get(`/workspaces/${ws}/share/board/${board}`));
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((r) => r.json().token)).size).toBe(1);
    const asset1 = await asset(ws);
    await env.rt.db.insertInto("board_assets").values({ board_id: board, asset_id: asset1 }).execute();
    const assetLinks = await all(() => c.put(`/workspaces/${ws}/share/asset/${asset1}`, { board_id: board }));
    expect(new Set(assetLinks.map((r) => `${r.statusCode} ${r.json().token}`)).size).toBe(1);
  });

  it("boards created under one parent at once all get a place", async () => {
    const { ws, c } = await workspace();
    const answers = await all((i) => c.post(`/workspaces/${ws}/boards`, { name: `B${i}` }));
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 201));
  });

  it("an invitation accepted twice at once: one 200, the other as a second acceptance", async () => {
    const { ws, c } = await workspace();
    const invitee = await signedInUser(env);
    await c.post(`/workspaces/${ws}/invites`, { email: invitee.email, role: "EDITOR" });
    const mail = await waitForOutboxMail(env, invitee.email, "invited you");
    const token = linkToken(mail.text_body, "/a/invite/");
    await invitee.client.fetchCsrf();
    const accept = () => invitee.client.post("/invites/accept", { token });
    const answers = await all(accept);
    oneWins(answers, 200, await accept());
  });

  it("two accounts confirming a change to one address at once: one 200, the other 409 'already in use'", async () => {
    const target = uniqueEmail("wanted");
    const users = await Promise.all([signedInUser(env), signedInUser(env)]);
    for (const u of users) {
      const res = await u.client.post("/users/change-email", {
        new_email: target,
        current_password: "correct horse battery",
      });
      expect(res.statusCode).toBe(200);
    }
    const mails = await mailsTo(target, 2);
    const tokens = mails.map((m) => linkToken(m.text_body, "/a/verify-email-change/"));
    expect(tokens).toHaveLength(2);
    const answers = await Promise.all(tokens.map((t, i) => users[i]!.client.get(`/users/verify-email-change/${t}`)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().detail).toBe("That e-mail address is already in use.");
  });

  it("a comment's mentions edited twice at once: both saved", async () => {
    const { ws, c, w } = await workspace();
    const a = await asset(ws);
    const mention = [w.members.EDITOR!.user.id];
    const comment = await c.post(`/workspaces/${ws}/comments`, { content_type: "asset", object_id: a, text: "hi" });
    expect(comment.statusCode, comment.body).toBe(201);
    const id = comment.json().id as string;
    const answers = await all((i) =>
      c.put(`/workspaces/${ws}/comments/${id}`, { text: `edit ${i}`, mentions: mention }),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
  });

  it("a comment's mentions edited while another edit's insert is uncommitted: saved, not 500", async () => {
    const { ws, c, w } = await workspace();
    const a = await asset(ws);
    const user = w.members.EDITOR!.user.id;
    const made = await c.post(`/workspaces/${ws}/comments`, { content_type: "asset", object_id: a, text: "hi" });
    const id = made.json().id as string;
    let pending: Promise<LightMyRequestResponse> | undefined;
    await env.rt.db.transaction().execute(async (tx) => {
      await tx.insertInto("comment_mentions").values({ comment_id: id, user_id: user }).execute();
      pending = c.put(`/workspaces/${ws}/comments/${id}`, { text: "edited", mentions: [user] });
      await waitersOn("comment_mentions", 1);
    });
    expect((await pending!).statusCode).toBe(200);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  createTestEnv,
  linkToken,
  type TestEnv,
  uniqueEmail,
  uploadBytes,
  waitForAsset,
} from "../../../test/harness.ts";
import { mailsSettled, smtpInbox, waitForMails } from "../../../test/mail-inbox.ts";
import { png } from "../../../test/versions.ts";
import { createReview, decided, linkOf, team } from "./reviews.fixture.ts";

/**
 * The review mails over real SMTP (issue 30): asked to review when a stage starts, each decision to
 * the requester (the first at once, the next ones within 10 minutes gathered), the review done, a
 * reminder 24 hours before the due date and one when overdue; each sent once. The scheduled sweep
 * runs with a clock the test moves; mails are counted once every mail job has run.
 */
let env: TestEnv;
let smtp: Awaited<ReturnType<typeof smtpInbox>>;
let realNow: () => Date;
beforeAll(async () => {
  smtp = await smtpInbox();
  env = await createTestEnv({ SMTP_URL: smtp.url, AI_TAGS: "0", OCR: "0" });
  realNow = env.rt.clock.now;
});
afterAll(async () => {
  await env.close();
  await smtp.close();
});
afterEach(() => {
  env.rt.clock.now = realNow;
});

const MIN = 60_000;
const HOUR = 60 * MIN;
const later = (ms: number) => new Date(Date.now() + ms);
const sweep = async (at: Date) => {
  await env.rt.services.reviews.mails.sweep(at);
  await mailsSettled(env);
};
let shade = 10;
async function assets(client: Client, ws: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    shade += 23;
    const id = await uploadBytes(client, ws, `m${shade}.png`, await png(`rgb(${shade % 256}, 80, 90)`));
    await waitForAsset(client, ws, id);
    ids.push(id);
  }
  return ids;
}

describe("review mails", () => {
  it("asks each stage's reviewers when it starts (due date, a link that opens); decisions and the end to the requester, once", async () => {
    const t = await team(env, { req: "EDITOR", ann: "COMMENTER" });
    const [a] = await assets(t.m.req.client, t.ws, 1);
    const guest = uniqueEmail("guest");
    const due = later(3 * 24 * HOUR);
    const r = await createReview(t.m.req.client, t.ws, {
      title: "Label artwork",
      message: "Final print run",
      due_at: due.toISOString(),
      asset_ids: [a!],
      stages: [{ reviewers: [t.m.ann.user.id] }, { reviewers: [{ email: guest, name: "Gus" }] }],
    });
    const [asked] = await waitForMails(() => smtp.to(t.m.ann.email, "You are asked to review on Hangar"));
    expect(asked!.text).toContain("asks you to review “Label artwork”");
    expect(asked!.text).toContain("Final print run");
    expect(asked!.text).toContain(`Due ${due.toISOString().slice(0, 16).replace("T", " ")} UTC`);
    expect(asked!.text).toContain(`http://hangar.test/w/${t.ws}/reviews/${r.id}`);
    await mailsSettled(env);
    expect(smtp.to(guest)).toEqual([]); // stage 2 has not started
    await decided(t.m.ann.client, t.ws, r.id, { asset_id: a!, decision: "approved", note: "Good to go" });
    const [invite] = await waitForMails(() => smtp.to(guest, "You are asked to review on Hangar"));
    expect(invite!.text).toContain("Hi Gus,");
    const token = linkToken(invite!.text, "http://hangar.test/review/");
    expect(token).toBe(
      linkOf(await (await t.m.req.client.get(`/workspaces/${t.ws}/reviews/${r.id}`)).json(), guest).token,
    );
    expect((await new Client(env.app).get(`/review/${token}`)).statusCode).toBe(200);
    const [first] = await waitForMails(() => smtp.to(t.m.req.email, "A decision on your review"));
    expect(first!.text).toContain("ann User: Approved");
    expect(first!.text).toContain("Good to go");
    // The guest approves within ann's window: the review is done at once, the decision waits for the window.
    const approve = await new Client(env.app).post(`/review/${token}/decisions`, { asset_id: a, decision: "approved" });
    expect(approve.statusCode, approve.body).toBe(201);
    const [done] = await waitForMails(() => smtp.to(t.m.req.email, "Your review is done"));
    expect(done!.text).toContain("Every decision asked for in “Label artwork” is in: Approved.");
    await sweep(later(5 * MIN));
    expect(smtp.to(t.m.req.email, "A decision on your review")).toHaveLength(1);
    await sweep(later(11 * MIN));
    const decisions = smtp.to(t.m.req.email, "A decision on your review");
    expect(decisions).toHaveLength(2);
    expect(decisions[1]!.text).toContain("Gus: Approved");
    // Sweeping again, later, sends nothing more: each mail went once.
    await sweep(later(2 * HOUR));
    expect(smtp.to(t.m.ann.email).map((m) => m.subject)).toEqual(["You are asked to review on Hangar"]);
    expect(smtp.to(guest).map((m) => m.subject)).toEqual(["You are asked to review on Hangar"]);
    expect(
      smtp
        .to(t.m.req.email)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(["A decision on your review", "A decision on your review", "Your review is done"]);
  });

  it("gathers decisions after the first into one mail at the end of its 10 minutes; the next after that goes at once", async () => {
    const t = await team(env, { req: "EDITOR", ann: "COMMENTER", bob: "EDITOR" });
    const [a, b, c] = await assets(t.m.req.client, t.ws, 3);
    const r = await createReview(t.m.req.client, t.ws, {
      title: "Busy",
      asset_ids: [a!, b!, c!],
      stages: [{ reviewers: [t.m.ann.user.id, t.m.bob.user.id, t.m.req.user.id] }],
    });
    await decided(t.m.ann.client, t.ws, r.id, { asset_id: a!, decision: "approved" });
    await waitForMails(() => smtp.to(t.m.req.email, "A decision on your review"));
    await decided(t.m.ann.client, t.ws, r.id, {
      asset_id: b!,
      decision: "approved_with_changes",
      note: "Crop tighter",
    });
    await decided(t.m.bob.client, t.ws, r.id, { asset_id: c!, decision: "changes_requested" });
    // The requester's own decisions are not mailed to them.
    await decided(t.m.req.client, t.ws, r.id, { asset_id: c!, decision: "approved" });
    await sweep(later(9 * MIN));
    expect(smtp.to(t.m.req.email, "New decisions on your review")).toEqual([]);
    await sweep(later(11 * MIN));
    const [digest] = smtp.to(t.m.req.email, "New decisions on your review");
    expect(digest!.text).toContain("ann User: Approved with changes — “");
    expect(digest!.text).toContain("Crop tighter");
    expect(digest!.text).toContain("bob User: Changes requested");
    expect(digest!.text).not.toContain("req User: ");
    // After the window, a decision goes at once and opens a new one.
    env.rt.clock.now = () => later(12 * MIN);
    await decided(t.m.bob.client, t.ws, r.id, { asset_id: a!, decision: "approved" });
    await waitForMails(() => smtp.to(t.m.req.email, "A decision on your review"), 2);
    await sweep(later(30 * MIN));
    // (Delivered in any order: the mail jobs run side by side.)
    expect(
      smtp
        .to(t.m.req.email)
        .map((m) => m.subject)
        .sort(),
    ).toEqual([
      "A decision on your review",
      "A decision on your review",
      "New decisions on your review",
      "You are asked to review on Hangar", // the requester named themselves a reviewer
    ]);
  });

  it("reminds the reviewers still awaited 24 hours before the due date, and tells them and the requester when overdue, once", async () => {
    const t = await team(env, { req: "EDITOR", ann: "COMMENTER", bob: "EDITOR" });
    const [a] = await assets(t.m.req.client, t.ws, 1);
    const r = await createReview(t.m.req.client, t.ws, {
      title: "Due soon",
      due_at: later(30 * HOUR).toISOString(),
      asset_ids: [a!],
      stages: [{ reviewers: [t.m.ann.user.id, t.m.bob.user.id] }],
    });
    await decided(t.m.ann.client, t.ws, r.id, { asset_id: a!, decision: "approved" });
    await sweep(later(MIN));
    expect(smtp.to(t.m.bob.email, "A review is due within 24 hours")).toEqual([]);
    await sweep(later(7 * HOUR));
    const [reminder] = smtp.to(t.m.bob.email, "A review is due within 24 hours");
    expect(reminder!.text).toContain("“Due soon” is due");
    expect(reminder!.text).toContain("1 asset(s) still wait for your decision");
    await sweep(later(8 * HOUR));
    await sweep(later(31 * HOUR));
    expect(smtp.to(t.m.bob.email, "A review is overdue")).toHaveLength(1);
    expect(smtp.to(t.m.req.email, "A review is overdue")[0]!.text).toContain("1 reviewer(s) have not decided yet");
    await sweep(later(40 * HOUR));
    expect(
      smtp
        .to(t.m.bob.email)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(["A review is due within 24 hours", "A review is overdue", "You are asked to review on Hangar"]);
    expect(smtp.to(t.m.ann.email).map((m) => m.subject)).toEqual(["You are asked to review on Hangar"]);
    expect(smtp.to(t.m.req.email, "A review is overdue")).toHaveLength(1);
    const overdue = (await t.m.req.client.get(`/workspaces/${t.ws}/reviews/${r.id}`)).json();
    expect(overdue.overdue).toBe(false); // the real clock: not due yet
  });

  it("is counted apart from the account mails: a full sign-up and reset limit holds no review mail back, and review mails use none of it", async () => {
    const t = await team(env, { req: "EDITOR", ann: "COMMENTER" });
    const [a] = await assets(t.m.req.client, t.ws, 1);
    // The requester's address has used up its account mails (sign-up, reset) for this hour.
    const key = `mail:to:${t.m.req.email.toLowerCase()}`;
    await env.rt.db.insertInto("rate_limits").values({ key, count: 5, window_start: new Date() }).execute();
    const r = await createReview(t.m.req.client, t.ws, {
      title: "Apart",
      asset_ids: [a!],
      stages: [{ reviewers: [t.m.ann.user.id] }],
    });
    await decided(t.m.ann.client, t.ws, r.id, { asset_id: a!, decision: "approved" });
    await waitForMails(() => smtp.to(t.m.req.email, "Your review is done"));
    await mailsSettled(env);
    expect(smtp.to(t.m.req.email, "A decision on your review")).toHaveLength(1);
    const counted = (k: string) =>
      env.rt.db.selectFrom("rate_limits").select("count").where("key", "=", k).executeTakeFirst();
    expect((await counted(key))?.count).toBe(5);
    expect(await counted(`mail:to:${t.m.ann.email.toLowerCase()}`)).toBeUndefined();
    expect((await counted(`review-mail:to:${t.m.req.email.toLowerCase()}`))?.count).toBe(2);
    // …and the reviewer's own reset mail still goes: review mails did not count against their address.
    const forgot = await new Client(env.app).post("/users/forgot-password", { email: t.m.ann.email });
    expect(forgot.statusCode).toBe(200);
    await waitForMails(() => smtp.to(t.m.ann.email, "Reset your Hangar password"));
  });
});

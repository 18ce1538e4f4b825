import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv } from "../../../test/harness.ts";
import { mailsSettled, smtpInbox, waitForMails } from "../../../test/mail-inbox.ts";
import { images, team } from "../../../test/team.ts";

/**
 * The daily rights mail (issue 33) over real SMTP: each workspace's ADMINs hear of assets expiring
 * within 14 days and of those that expired, each notice once; a new expiry date notifies again.
 * The sweep runs at times the test chooses (the job passes the runtime's clock).
 */
let env: TestEnv;
let smtp: Awaited<ReturnType<typeof smtpInbox>>;
beforeAll(async () => {
  smtp = await smtpInbox();
  env = await createTestEnv({ SMTP_URL: smtp.url, AI_TAGS: "0", OCR: "0" });
});
afterAll(async () => {
  await env.close();
  await smtp.close();
});

const DAY = 86_400_000;
const SUBJECT = "Usage rights expiring on Hangar";
const sweep = async (at: Date) => {
  const sent = await env.rt.services.rightsMails.sweep(at);
  await mailsSettled(env);
  return sent;
};

describe("the rights mail", () => {
  it("tells ADMINs (only) of expiring and expired assets once each, and again for a new date", async () => {
    const t = await team(env, { ed: "EDITOR" });
    const c = t.admin.client;
    const [soon, later, gone, never] = await images(env, c, t.ws, 4);
    const name = async (id: string) => (await c.get(`/workspaces/${t.ws}/assets/${id}`)).json().name as string;
    const put = (id: string, expires_at: string | null) =>
      c.put(`/workspaces/${t.ws}/assets/${id}/rights`, { credit: "Agency", expires_at });
    const now = Date.now();
    await put(soon!, new Date(now + 10 * DAY).toISOString());
    await put(later!, new Date(now + 40 * DAY).toISOString());
    await put(gone!, new Date(now - DAY).toISOString());
    await put(never!, null);

    expect(await sweep(new Date(now))).toBeGreaterThanOrEqual(1);
    const [first] = await waitForMails(() => smtp.to(t.admin.email, SUBJECT));
    expect(first!.text).toContain(`Expired (they left every share link and review link`);
    expect(first!.text).toContain(await name(gone!));
    expect(first!.text).toContain("Expiring within 14 days:");
    expect(first!.text).toContain(await name(soon!));
    expect(first!.text).not.toContain(await name(later!));
    expect(first!.text).not.toContain(await name(never!));
    expect(first!.text).toContain(`http://hangar.test/w/${t.ws}/b/all?f=`);
    expect(smtp.to(t.m.ed.email)).toEqual([]);

    // The next day: nothing new.
    await sweep(new Date(now + DAY));
    expect(smtp.to(t.admin.email, SUBJECT)).toHaveLength(1);
    // 30 days on: "soon" has expired (its second notice) and "later" is within 14 days.
    await sweep(new Date(now + 30 * DAY));
    const mails = await waitForMails(() => smtp.to(t.admin.email, SUBJECT), 2);
    expect(mails[1]!.text).toContain(await name(soon!));
    expect(mails[1]!.text).toContain(await name(later!));
    expect(mails[1]!.text).not.toContain(await name(gone!));
    await sweep(new Date(now + 31 * DAY));
    expect(smtp.to(t.admin.email, SUBJECT)).toHaveLength(2);

    // Extended, then expiring again on the new date: a new notice.
    await put(gone!, new Date(now + 60 * DAY).toISOString());
    await sweep(new Date(now + 31 * DAY));
    expect(smtp.to(t.admin.email, SUBJECT)).toHaveLength(2);
    await sweep(new Date(now + 50 * DAY));
    const third = (await waitForMails(() => smtp.to(t.admin.email, SUBJECT), 3))[2]!;
    expect(third.text).toContain(await name(gone!));
    expect(third.text).toContain("Expiring within 14 days:");
    expect(third.text).toContain(await name(later!)); // which has expired by now
    expect(third.text).not.toContain(await name(soon!));
  });

  it("two sweeps at once send each notice once", async () => {
    const t = await team(env, {});
    const c = t.admin.client;
    const [a] = await images(env, c, t.ws, 1);
    await c.put(`/workspaces/${t.ws}/assets/${a}/rights`, { expires_at: new Date(Date.now() + DAY).toISOString() });
    const at = new Date();
    await Promise.all([env.rt.services.rightsMails.sweep(at), env.rt.services.rightsMails.sweep(at)]);
    await mailsSettled(env);
    await waitForMails(() => smtp.to(t.admin.email, SUBJECT));
    expect(smtp.to(t.admin.email, SUBJECT)).toHaveLength(1);
  });
});

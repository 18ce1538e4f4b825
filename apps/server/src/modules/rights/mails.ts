import { formatRightsDate, RIGHTS_NOTICE_DAYS } from "@hangar/contract";
import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import { composeMail } from "../../mail/compose.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { type ClaimedNotice, rightsMailRepo } from "./mail-repo.ts";

/** The web's filter parameter (base64url JSON, entities/asset/url-state.ts): expiring within 14 days. */
const EXPIRING_FILTER = Buffer.from(JSON.stringify({ rights_expire: { within_days: RIGHTS_NOTICE_DAYS } })).toString(
  "base64url",
);
/** At most this many assets are named in one mail (the rest are counted). */
const LISTED_MAX = 50;

const lines = (ns: ClaimedNotice[], verb: string) => {
  const shown = ns
    .slice(0, LISTED_MAX)
    .map((n) => `• ${n.asset_name} — ${verb} ${formatRightsDate(n.expire_at.toISOString())}`);
  return ns.length > LISTED_MAX ? [...shown, `… and ${ns.length - LISTED_MAX} more`] : shown;
};

/**
 * The daily rights mail (issue 33): each workspace's ADMINs hear of the assets whose usage rights
 * expire within 14 days and of those that expired, each asset's notice once per expiry date (claimed
 * before it is sent, mail-repo.ts), so a date moved later notifies again.
 */
export function createRightsMails(deps: {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  clock: { now(): Date };
  log: Logger;
}) {
  return {
    async sweep(at: Date = deps.clock.now()): Promise<number> {
      const claimed = await rightsMailRepo.claim(deps.db, at, RIGHTS_NOTICE_DAYS);
      const byWorkspace = new Map<string, ClaimedNotice[]>();
      for (const n of claimed) byWorkspace.set(n.workspace_id, [...(byWorkspace.get(n.workspace_id) ?? []), n]);
      let sent = 0;
      for (const [workspaceId, notices] of byWorkspace) {
        const expiring = notices.filter((n) => n.kind === "expiring");
        const expired = notices.filter((n) => n.kind === "expired");
        const name = notices[0]!.workspace_name;
        const paragraphs = [
          `Usage rights of assets in "${name}" need your attention.`,
          ...(expired.length
            ? [
                `Expired (they left every share link and review link; only ADMINs can download them):\n${lines(expired, "expired").join("\n")}`,
              ]
            : []),
          ...(expiring.length
            ? [`Expiring within ${RIGHTS_NOTICE_DAYS} days:\n${lines(expiring, "expires").join("\n")}`]
            : []),
          "Extend the rights in the asset's details to keep it shared.",
        ];
        for (const admin of await rightsMailRepo.admins(deps.db, workspaceId)) {
          await deps.mailer.send(
            composeMail({
              to: admin.email,
              subject: "Usage rights expiring on Hangar",
              paragraphs,
              link: {
                label: "Open the assets",
                url: `${deps.publicUrl}/w/${workspaceId}/b/all?f=${EXPIRING_FILTER}`,
              },
            }),
          );
          sent++;
        }
      }
      if (claimed.length) deps.log.info({ notices: claimed.length, mails: sent }, "rights notices sent");
      return sent;
    },
  };
}
export type RightsMails = ReturnType<typeof createRightsMails>;

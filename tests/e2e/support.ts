import { readFileSync } from "node:fs";
import { expect } from "@playwright/test";

export const baseUrl = () => {
  const u = process.env.HANGAR_E2E_URL;
  if (!u) throw new Error("HANGAR_E2E_URL is not set: run through scripts/e2e.mjs");
  return u;
};

/** Waits for a mail to `to` in the SMTP peer's mailbox and answers its first link to `pathPart`. */
export async function linkFromMail(to: string, pathPart: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      () => {
        const lines = readFileSync(process.env.HANGAR_E2E_MAILBOX!, "utf8").split("\n").filter(Boolean);
        for (const l of lines.reverse()) {
          const m = JSON.parse(l) as { to: string; text: string };
          const found = m.to === to ? new RegExp(`https?://\\S+${pathPart}\\S+`).exec(m.text) : null;
          if (found) {
            link = found[0];
            return true;
          }
        }
        return false;
      },
      { timeout: 20_000, message: `a mail to ${to} with a ${pathPart} link` },
    )
    .toBe(true);
  return link;
}

export const uniqueEmail = (p: string) =>
  `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;

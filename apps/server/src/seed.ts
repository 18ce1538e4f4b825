import { randomBytes } from "node:crypto";
import { hashPassword } from "./modules/auth/passwords.ts";
import type { Runtime } from "./runtime.ts";

export const DEMO_EMAIL = "demo@hangar.local";

const newPassword = () => randomBytes(9).toString("base64url");

/**
 * On first run (no users at all) create a verified demo account with its own workspace and answer
 * its password (shown once). On later runs answer the demo account without a password (null when
 * there is none), so the start-up banner can say how to get in again.
 */
export async function ensureDemoAccount(rt: Runtime): Promise<{ email: string; password: string | null } | null> {
  const any = await rt.services.users.findByEmail(DEMO_EMAIL);
  if (any) return { email: DEMO_EMAIL, password: null };
  if ((await rt.services.users.count()) > 0) return null;
  const password = newPassword();
  const user = await rt.services.users.create({
    email: DEMO_EMAIL,
    password_hash: await hashPassword(password),
    first_name: "Demo",
    last_name: "User",
    email_verified_at: new Date(),
  });
  if (!user) return null;
  await rt.services.workspaces.createFor(user.id, "Demo workspace");
  return { email: DEMO_EMAIL, password };
}

/** `hangar reset-password <e-mail>`: a new random password (answered once), every session ended. */
export async function resetPassword(rt: Runtime, email: string): Promise<string | null> {
  const user = await rt.services.users.findByEmail(email.trim().toLowerCase());
  if (!user) return null;
  const password = newPassword();
  await rt.services.users.update(user.id, { password_hash: await hashPassword(password) });
  await rt.services.auth.endSessions(user.id);
  return password;
}

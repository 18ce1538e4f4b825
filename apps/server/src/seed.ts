import { randomBytes } from "node:crypto";
import { hashPassword } from "./modules/auth/passwords.ts";
import type { Runtime } from "./runtime.ts";

export const DEMO_EMAIL = "demo@hangar.local";

/** On first run (no users at all) create a verified demo account with its own workspace. */
export async function ensureDemoAccount(rt: Runtime): Promise<{ email: string; password: string } | null> {
  const any = await rt.services.users.findByEmail(DEMO_EMAIL);
  if (any) return null;
  if ((await rt.services.users.count()) > 0) return null;
  const password = randomBytes(9).toString("base64url");
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

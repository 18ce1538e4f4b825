import { hash, verify } from "@node-rs/argon2";

// algorithm 2 = Argon2id (the package exports it as a const enum, unusable under isolatedModules).
const OPTIONS = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

// Verifying against this when no account exists keeps the answer time the same (no enumeration).
let dummy: Promise<string> | undefined;
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hashPassword("not-a-real-password-for-timing");
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

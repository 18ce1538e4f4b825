import type { RegisterAnswer, RegisterBody, User } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import type { UserRow } from "../../db/types.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { Access } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { AppError, conflict, invalid, notFound, unauthenticated } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import { cacheKeys, type ReadCache } from "../../platform/read-cache.ts";
import { hashToken, newToken } from "../../platform/tokens.ts";
import type { MembersService } from "../members/index.ts";
import { toUser, type UsersService } from "../users/index.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { authRepo } from "./repo.ts";

const TOUCH_AFTER_MS = 3600_000;
interface CachedSession {
  user: UserRow;
  lastSeen: number;
  expiresAt: number;
}

/** Per account: a handful of tries, then a short wait, so an attacker cannot lock the owner out for long. */
export const LOGIN_LIMIT_ACCOUNT: Limit = { max: 8, windowSeconds: 10 * 60 };
export const LOGIN_LIMIT_IP: Limit = { max: 40, windowSeconds: 10 * 60 };
export const MAIL_LIMIT: Limit = { max: 5, windowSeconds: 15 * 60 };
const VERIFY_TTL_MS = 48 * 3600_000;
const RESET_TTL_MS = 3600_000;

export interface NewSession {
  token: string;
  user: User;
}

export function createAuthService(deps: {
  db: Db;
  users: UsersService;
  members: MembersService;
  mailer: Mailer;
  limiter: RateLimiter;
  access: Access;
  cache: ReadCache;
  publicUrl: string;
  sessionTtlDays: number;
  /** Sign-ups per IP address per hour (REGISTRATIONS_PER_IP_PER_HOUR). */
  registrationsPerIpPerHour: number;
}) {
  const { db, users, limiter, mailer, access, cache } = deps;
  const registerLimit = { max: deps.registrationsPerIpPerHour, windowSeconds: 3600 };
  const ttlMs = deps.sessionTtlDays * 86_400_000;

  /** Every session of the user ends, in this process's read cache at once (elsewhere by notification). */
  async function endSessions(userId: string) {
    await authRepo.deleteUserSessions(db, userId);
    cache.bump(cacheKeys.user(userId));
  }

  async function startSession(
    user: UserRow,
    meta: { ip: string | null; userAgent: string | null },
  ): Promise<NewSession> {
    const token = newToken();
    await authRepo.createSession(db, {
      id: hashToken(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + ttlMs),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    });
    return { token, user: toUser(user) };
  }

  async function mailToken(user: UserRow, purpose: "verify_email" | "change_email" | "reset_password", email: string) {
    const token = newToken();
    const ttl = purpose === "reset_password" ? RESET_TTL_MS : VERIFY_TTL_MS;
    await authRepo.createEmailToken(db, {
      hash: hashToken(token),
      userId: user.id,
      purpose,
      email,
      expiresAt: new Date(Date.now() + ttl),
    });
    const name = user.first_name || "there";
    if (purpose === "verify_email") {
      await mailer.send({
        to: email,
        subject: "Verify your e-mail address for Hangar",
        text: `Hi ${name},\n\nConfirm your e-mail address to start using Hangar:\n${deps.publicUrl}/a/verify-email/${token}\n\nThe link expires in 48 hours. If you did not sign up, ignore this message.`,
      });
    } else if (purpose === "change_email") {
      await mailer.send({
        to: email,
        subject: "Confirm your new e-mail address for Hangar",
        text: `Hi ${name},\n\nConfirm that ${email} is your new Hangar address:\n${deps.publicUrl}/a/verify-email-change/${token}\n\nThe link expires in 48 hours.`,
      });
    } else {
      await mailer.send({
        to: email,
        subject: "Reset your Hangar password",
        text: `Hi ${name},\n\nChoose a new password:\n${deps.publicUrl}/a/reset-password?token=${token}\n\nThe link works once and expires in 1 hour. If you did not ask for this, ignore this message: your password stays as it is.`,
      });
    }
  }

  const sameAnswer = (email: string): RegisterAnswer => ({
    status: "ok",
    signed_in: false,
    detail: `We sent a verification link to ${email}. Open it to finish signing up.`,
    data: null,
  });

  return {
    /**
     * The caller's session and user, plus their role in `workspaceId` when given. From the read cache
     * when it holds both (no query), else one query whose answers it then keeps. `fresh` (mutations):
     * always the query, so a change is authorised against the database as it is now.
     */
    async resolveSession(token: string, workspaceId?: string, fresh = false) {
      const id = hashToken(token);
      const now = Date.now();
      const hit = fresh ? undefined : cache.get<CachedSession>(cacheKeys.session(id));
      if (hit && hit.expiresAt > now && now - hit.lastSeen <= TOUCH_AFTER_MS) {
        const role = workspaceId ? access.peekRole(hit.user.id, workspaceId) : null;
        if (role !== undefined) return { sessionId: id, user: hit.user, role };
      }
      const snap = cache.snapshot();
      const found = await authRepo.findSession(db, id, workspaceId);
      if (!found) return null;
      const userId = found.user.id;
      // Sliding expiry, written at most once an hour to keep reads cheap.
      if (now - found.lastSeen.getTime() > TOUCH_AFTER_MS) {
        await authRepo.touchSession(db, id, new Date(now + ttlMs));
      } else {
        const entry: CachedSession = {
          user: found.user,
          lastSeen: found.lastSeen.getTime(),
          expiresAt: found.expiresAt.getTime(),
        };
        cache.set(cacheKeys.session(id), entry, [cacheKeys.user(userId), cacheKeys.session(id)], snap);
      }
      if (workspaceId) access.keepRole(userId, workspaceId, found.role, snap);
      return { sessionId: id, user: found.user, role: found.role };
    },

    async login(email: string, password: string, meta: { ip: string; userAgent: string | null }): Promise<NewSession> {
      const accountKey = `login:acct:${email.toLowerCase()}`;
      const ipKey = `login:ip:${meta.ip}`;
      const tooMany = "Too many sign-in attempts. Wait a few minutes and try again.";
      await limiter.check(
        [
          [accountKey, LOGIN_LIMIT_ACCOUNT],
          [ipKey, LOGIN_LIMIT_IP],
        ],
        tooMany,
      );
      const user = await users.findByEmail(email);
      const ok = await verifyPassword(user?.password_hash, password);
      if (!user || !ok) {
        await limiter.hit(accountKey, LOGIN_LIMIT_ACCOUNT);
        await limiter.hit(ipKey, LOGIN_LIMIT_IP);
        throw unauthenticated("Invalid e-mail or password.");
      }
      await limiter.clear(accountKey);
      if (!user.email_verified_at) {
        throw new AppError(
          "EMAIL_NOT_VERIFIED",
          "Verify your e-mail address first: open the link we sent you, or ask for a new one.",
        );
      }
      return startSession(user, meta);
    },

    async logout(sessionId: string) {
      await authRepo.deleteSession(db, sessionId);
      cache.bump(cacheKeys.session(sessionId));
    },
    endSessions,

    /**
     * Never says whether the address was taken. With a live invite for the same address the e-mail is
     * proven by the invitation mail, so the account is verified, joins the workspace and is signed in.
     */
    async register(
      body: RegisterBody,
      meta: { ip: string; userAgent: string | null },
    ): Promise<{ answer: RegisterAnswer; token?: string }> {
      await limiter.check([[`register:ip:${meta.ip}`, registerLimit]], "Too many sign-ups from here. Try again later.");
      await limiter.hit(`register:ip:${meta.ip}`, registerLimit);
      const inviteEmail = body.invite_token ? await deps.members.inviteEmail(body.invite_token) : null;
      if (body.invite_token && !inviteEmail) throw notFound("This invitation is invalid or has expired.");
      if (inviteEmail && inviteEmail.toLowerCase() !== body.email) {
        throw invalid(`This invitation was sent to ${inviteEmail}.`, [
          { field: "email", message: `Use ${inviteEmail}` },
        ]);
      }
      const passwordHash = await hashPassword(body.password);
      const created = await users.create({
        email: body.email,
        password_hash: passwordHash,
        first_name: body.first_name,
        last_name: body.last_name,
        email_verified_at: inviteEmail ? new Date() : null,
      });
      if (!created) {
        const existing = await users.findByEmail(body.email);
        if (existing) {
          await mailer.send({
            to: existing.email,
            subject: "Someone tried to sign up with your e-mail address",
            text: `Hi ${existing.first_name || "there"},\n\nSomeone (maybe you) tried to create a Hangar account with this address, which already has one.\nSign in: ${deps.publicUrl}/a/login\nForgot your password? ${deps.publicUrl}/a/forgot-password`,
          });
        }
        return { answer: sameAnswer(body.email) };
      }
      if (inviteEmail && body.invite_token) {
        await deps.members.acceptInvite(created.id, created.email, body.invite_token);
        const s = await startSession(created, meta);
        return {
          answer: { status: "ok", signed_in: true, detail: "Welcome to Hangar.", data: s.user },
          token: s.token,
        };
      }
      await mailToken(created, "verify_email", created.email);
      return { answer: sameAnswer(body.email) };
    },

    async resendVerification(email: string, ip: string) {
      await limiter.check([[`mail:ip:${ip}`, MAIL_LIMIT]], "Too many e-mails requested. Try again later.");
      await limiter.hit(`mail:ip:${ip}`, MAIL_LIMIT);
      const user = await users.findByEmail(email);
      if (user && !user.email_verified_at) await mailToken(user, "verify_email", user.email);
      return `If ${email} has an account waiting for verification, a new link is on its way.`;
    },

    async verifyEmail(token: string, meta: { ip: string; userAgent: string | null }): Promise<NewSession> {
      const t = await authRepo.consumeEmailToken(db, hashToken(token), "verify_email");
      if (!t) throw notFound("This verification link is invalid or has expired.");
      const user = await users.update(t.user_id, { email_verified_at: new Date() });
      if (!user) throw notFound("This verification link is invalid or has expired.");
      return startSession(user, meta);
    },

    async forgotPassword(email: string, ip: string) {
      await limiter.check([[`mail:ip:${ip}`, MAIL_LIMIT]], "Too many e-mails requested. Try again later.");
      await limiter.hit(`mail:ip:${ip}`, MAIL_LIMIT);
      const user = await users.findByEmail(email);
      if (user) await mailToken(user, "reset_password", user.email);
      return `If ${email} has an account, a link to reset the password is on its way.`;
    },

    /** Proves the mailbox too, so an unverified account becomes verified. Every session ends. */
    async resetPassword(token: string, newPassword: string) {
      const t = await authRepo.consumeEmailToken(db, hashToken(token), "reset_password");
      if (!t) throw notFound("This reset link is invalid or has expired. Ask for a new one.");
      const hash = await hashPassword(newPassword);
      const user = await users.findById(t.user_id);
      await users.update(t.user_id, { password_hash: hash, email_verified_at: user?.email_verified_at ?? new Date() });
      await endSessions(t.user_id);
      await limiter.clear(`login:acct:${t.email.toLowerCase()}`);
      return "Your password has been reset. Sign in with the new one.";
    },

    /** Ends every session, then opens a fresh one for the caller. */
    async changePassword(
      actor: UserActor,
      current: string,
      next: string,
      meta: { ip: string; userAgent: string | null },
    ) {
      if (!(await verifyPassword(actor.user.password_hash, current))) {
        throw invalid("The current password is not right.", [
          { field: "current_password", message: "Incorrect password" },
        ]);
      }
      const user = await users.update(actor.userId, { password_hash: await hashPassword(next) });
      await endSessions(actor.userId);
      return startSession(user!, meta);
    },

    async changeEmail(actor: UserActor, newEmail: string) {
      if (newEmail === actor.user.email.toLowerCase())
        throw invalid("That is already your e-mail address.", [{ field: "new_email", message: "Same as current" }]);
      const taken = await users.findByEmail(newEmail);
      if (taken) throw conflict("That e-mail address is already in use.");
      const user = await users.update(actor.userId, { pending_email: newEmail });
      await mailToken(user!, "change_email", newEmail);
      return `We sent a confirmation link to ${newEmail}. Your address changes when you open it.`;
    },

    async verifyEmailChange(token: string): Promise<User> {
      const t = await authRepo.consumeEmailToken(db, hashToken(token), "change_email");
      if (!t) throw notFound("This confirmation link is invalid or has expired.");
      const taken = await users.findByEmail(t.email);
      if (taken && taken.id !== t.user_id) throw conflict("That e-mail address is already in use.");
      const user = await users.update(t.user_id, {
        email: t.email,
        pending_email: null,
        email_verified_at: new Date(),
      });
      if (!user) throw notFound("This confirmation link is invalid or has expired.");
      return toUser(user);
    },

    purgeExpired: () => authRepo.purgeExpiredSessions(db),
  };
}
export type AuthService = ReturnType<typeof createAuthService>;

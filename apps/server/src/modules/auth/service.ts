import type { RegisterAnswer, RegisterBody, User } from "@hangar/contract";
import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import type { UserRow } from "../../db/types.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { type Access, account } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { AppError, conflict, forbidden, invalid, notFound, unauthenticated, uniqueOr } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import { cacheKeys, type ReadCache } from "../../platform/read-cache.ts";
import { hashToken, newToken } from "../../platform/tokens.ts";
import type { Signer } from "../../storage/signer.ts";
import type { AuditRecord } from "../audit/index.ts";
import type { MembersService } from "../members/index.ts";
import { toUser, type UsersService } from "../users/index.ts";
import { createAuthMail, MAIL_LIMIT } from "./mail-tokens.ts";
import { authMails } from "./mails.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { AUTH } from "./policy.ts";
import { authRepo } from "./repo.ts";
import {
  LOGIN_LIMIT_ACCOUNT,
  LOGIN_LIMIT_ACCOUNT_ANY,
  LOGIN_LIMIT_IP,
  signedIn,
  signInFailed,
} from "./sign-in-records.ts";

const TOUCH_AFTER_MS = 3600_000;
interface CachedSession {
  user: UserRow;
  sso: boolean;
  lastSeen: number;
  expiresAt: number;
}

export { MAIL_LIMIT, MAIL_LIMIT_ACCOUNT, MAIL_LIMIT_RECIPIENT } from "./mail-tokens.ts";
export { LOGIN_LIMIT_ACCOUNT, LOGIN_LIMIT_ACCOUNT_ANY, LOGIN_LIMIT_IP } from "./sign-in-records.ts";

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
  signer: Signer;
  log: Logger;
  publicUrl: string;
  sessionTtlDays: number;
  /** Sign-ups per IP address per hour (REGISTRATIONS_PER_IP_PER_HOUR). */
  registrationsPerIpPerHour: number;
  /** Records sign-ins, failed sign-ins and sign-outs in the audit log (modules/audit). */
  audit: (r: AuditRecord) => Promise<void>;
  /**
   * Under OIDC_ONLY (issue 36) this is the refusal of password sign-in, sign-up and reset (everyone
   * signs in through the provider); null when passwords work.
   */
  passwordsOff?: string | null;
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
    sso = false,
  ): Promise<NewSession> {
    const token = newToken();
    await authRepo.createSession(db, {
      id: hashToken(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + ttlMs),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
      sso,
    });
    return { token, user: toUser(user) };
  }

  const { mailToken, mailAllowed, mailKeys, tooManyMails, afterAnswer, deviceCookie, knownDevice } =
    createAuthMail(deps);

  /**
   * The current password, asked before changing the password or the e-mail address. Wrong answers
   * count like failed sign-ins, so a borrowed session cannot be used to guess it at leisure.
   */
  async function checkCurrentPassword(actor: UserActor, password: string) {
    const key = `login:acct-session:${actor.sessionId}`;
    // A slot is taken before the check and given back when the password is right: only wrong ones count.
    const taken = await limiter.consume(
      [[key, LOGIN_LIMIT_ACCOUNT]],
      "Too many wrong passwords. Wait a few minutes and try again.",
    );
    if (await verifyPassword(actor.user.password_hash, password)) await limiter.refund(taken);
    else {
      throw invalid("The current password is not right.", [
        { field: "current_password", message: "Incorrect password" },
      ]);
    }
  }

  const passwordsAllowed = () => {
    if (deps.passwordsOff) throw forbidden(deps.passwordsOff);
  };
  const auditSignIn = (user: UserRow, method: "password" | "sso") => deps.audit(signedIn(user, method));

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
        if (role !== undefined) return { sessionId: id, user: hit.user, role, sso: hit.sso };
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
          sso: found.sso,
          lastSeen: found.lastSeen.getTime(),
          expiresAt: found.expiresAt.getTime(),
        };
        cache.set(cacheKeys.session(id), entry, [cacheKeys.user(userId), cacheKeys.session(id)], snap);
      }
      if (workspaceId) access.keepRole(userId, workspaceId, found.role, snap);
      return { sessionId: id, user: found.user, role: found.role, sso: found.sso };
    },

    async login(
      email: string,
      password: string,
      meta: { ip: string; userAgent: string | null; device?: string },
    ): Promise<NewSession & { device: string }> {
      const account = email.toLowerCase();
      const pairKey = `login:acct-ip:${account}|${meta.ip}`;
      const ipKey = `login:ip:${meta.ip}`;
      const accountKey = `login:acct:${account}`;
      const tooMany = "Too many sign-in attempts. Wait a few minutes and try again.";
      passwordsAllowed();
      const user = await users.findByEmail(email);
      const known = await knownDevice(user?.id, meta.device);
      // Only failures count: a slot on every key is taken before the password is checked (so parallel
      // guesses cannot all be judged) and given back when it is right. The owner's known device is
      // not held by the account-wide limit, but its failures still count there.
      const keys: Array<[string, Limit]> = [
        [pairKey, LOGIN_LIMIT_ACCOUNT],
        [ipKey, LOGIN_LIMIT_IP],
      ];
      if (!known) keys.push([accountKey, LOGIN_LIMIT_ACCOUNT_ANY]);
      const taken = await limiter.consume(keys, tooMany);
      const ok = await verifyPassword(user?.password_hash, password);
      if (!user || !ok) {
        if (known) await limiter.count(accountKey, LOGIN_LIMIT_ACCOUNT_ANY);
        await deps.audit(signInFailed(account, user?.id ?? null));
        throw unauthenticated("Invalid e-mail or password.");
      }
      await limiter.clear(pairKey);
      await limiter.refund(taken, [ipKey, accountKey]);
      if (!user.email_verified_at) {
        throw new AppError(
          "EMAIL_NOT_VERIFIED",
          "Verify your e-mail address first: open the link we sent you, or ask for a new one.",
        );
      }
      const session = await startSession(user, meta);
      await auditSignIn(user, "password");
      return { ...session, device: await deviceCookie(user.id) };
    },

    /**
     * A session for a user the OpenID provider vouched for (modules/sso), the same as a password
     * sign-in's but marked `sso`, so workspaces requiring single sign-on let it in.
     */
    async ssoSignIn(user: UserRow, meta: { ip: string | null; userAgent: string | null }): Promise<NewSession> {
      const session = await startSession(user, meta, true);
      await auditSignIn(user, "sso");
      return session;
    },
    /** A single sign-on refused (by the provider's answer, the domain rule, a replay): recorded like a bad password. */
    async ssoSignInFailed(email: string | null, userId: string | null, reason: string) {
      await deps.audit(signInFailed(email, userId, { method: "sso", reason }));
    },

    async logout(sessionId: string, userId?: string) {
      if (userId)
        await deps.audit({
          workspaceId: null,
          userId,
          action: "account.signed_out",
          object: { type: "account", id: userId, name: null },
        });
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
      passwordsAllowed();
      await limiter.consume(
        [[`register:ip:${meta.ip}`, registerLimit]],
        "Too many sign-ups from here. Try again later.",
      );
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
        if (existing && (await mailAllowed(existing.email))) {
          const u = deps.publicUrl;
          await mailer.send(
            authMails.addressInUse(
              existing.email,
              existing.first_name || "there",
              `${u}/a/login`,
              `${u}/a/forgot-password`,
              true,
            ),
          );
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
      if (await mailAllowed(created.email)) await mailToken(created, "verify_email", created.email);
      return { answer: sameAnswer(body.email) };
    },

    async resendVerification(email: string, ip: string) {
      await limiter.consume([[`mail:ip:${ip}`, MAIL_LIMIT]], tooManyMails);
      afterAnswer("resend verification", async () => {
        const user = await users.findByEmail(email);
        if (user && !user.email_verified_at && (await mailAllowed(user.email)))
          await mailToken(user, "verify_email", user.email);
      });
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
      passwordsAllowed();
      await limiter.consume([[`mail:ip:${ip}`, MAIL_LIMIT]], tooManyMails);
      afterAnswer("forgot password", async () => {
        const user = await users.findByEmail(email);
        if (user && (await mailAllowed(user.email))) await mailToken(user, "reset_password", user.email);
      });
      return `If ${email} has an account, a link to reset the password is on its way.`;
    },

    /** Proves the mailbox too, so an unverified account becomes verified. Every session ends. */
    async resetPassword(token: string, newPassword: string) {
      passwordsAllowed();
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
      await access.require(actor, AUTH.changePassword, account(actor.userId));
      await checkCurrentPassword(actor, current);
      const user = await users.update(actor.userId, { password_hash: await hashPassword(next) });
      await endSessions(actor.userId);
      return startSession(user!, meta);
    },

    /**
     * Needs the current password; answers the same whether or not the new address has an account (that
     * address's owner is told instead), and tells the current address. Limited per account and recipient.
     */
    async changeEmail(actor: UserActor, newEmail: string, currentPassword: string) {
      await access.require(actor, AUTH.changeEmail, account(actor.userId));
      await checkCurrentPassword(actor, currentPassword);
      if (newEmail === actor.user.email.toLowerCase())
        throw invalid("That is already your e-mail address.", [{ field: "new_email", message: "Same as current" }]);
      // The mail to the new address is counted before anything is sent, and refused with 429 when full.
      await limiter.consume(mailKeys(newEmail, actor.userId), tooManyMails);
      const name = actor.user.first_name || "there";
      const u = deps.publicUrl;
      const taken = await users.findByEmail(newEmail);
      if (taken) {
        await mailer.send(
          authMails.addressInUse(taken.email, taken.first_name || "there", `${u}/a/login`, `${u}/a/forgot-password`),
        );
      } else {
        const user = await users.update(actor.userId, { pending_email: newEmail });
        await mailToken(user!, "change_email", newEmail);
      }
      if (await mailAllowed(actor.user.email)) {
        await mailer.send(authMails.changeEmailNotice(actor.user.email, name, newEmail, `${u}/a/forgot-password`));
      }
      return `We sent a confirmation link to ${newEmail}. Your address changes when you open it.`;
    },

    async verifyEmailChange(token: string): Promise<User> {
      const t = await authRepo.consumeEmailToken(db, hashToken(token), "change_email");
      if (!t) throw notFound("This confirmation link is invalid or has expired.");
      const taken = await users.findByEmail(t.email);
      const inUse = () => conflict("That e-mail address is already in use.");
      if (taken && taken.id !== t.user_id) throw inUse();
      const user = await uniqueOr(
        users.update(t.user_id, { email: t.email, pending_email: null, email_verified_at: new Date() }),
        "users_email_key",
        inUse,
      );
      if (!user) throw notFound("This confirmation link is invalid or has expired.");
      return toUser(user);
    },

    purgeExpired: () => authRepo.purgeExpiredSessions(db),
  };
}
export type AuthService = ReturnType<typeof createAuthService>;

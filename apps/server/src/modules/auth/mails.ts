import { composeMail } from "../../mail/compose.ts";
import type { MailMessage } from "../../mail/mailer.ts";

/** The account mails; subjects are fixed texts, names only ever appear as inert body text. */
export const authMails = {
  verify: (to: string, name: string, url: string): MailMessage =>
    composeMail({
      to,
      subject: "Verify your e-mail address for Hangar",
      paragraphs: [`Hi ${name},`, "Confirm your e-mail address to start using Hangar."],
      link: { label: "Confirm", url },
      footer: "The link expires in 48 hours. If you did not sign up, ignore this message.",
    }),
  changeEmail: (to: string, name: string, url: string): MailMessage =>
    composeMail({
      to,
      subject: "Confirm your new e-mail address for Hangar",
      paragraphs: [`Hi ${name},`, `Confirm that ${to} is your new Hangar address.`],
      link: { label: "Confirm", url },
      footer: "The link expires in 48 hours.",
    }),
  /** To the current address when a change is asked for, so a hijacked session cannot do it silently. */
  changeEmailNotice: (to: string, name: string, newEmail: string, resetUrl: string): MailMessage =>
    composeMail({
      to,
      subject: "Your Hangar e-mail address is being changed",
      paragraphs: [
        `Hi ${name},`,
        `Someone signed in to your Hangar account asked to change its e-mail address to ${newEmail}. It changes only when the link sent there is opened.`,
        "If this was not you, reset your password now: that signs out every device.",
      ],
      link: { label: "Reset your password", url: resetUrl },
    }),
  /** To an address that already has an account, instead of revealing that to whoever typed it. */
  addressInUse: (to: string, name: string, signInUrl: string, forgotUrl: string, signUp = false): MailMessage =>
    composeMail({
      to,
      subject: signUp
        ? "Someone tried to sign up with your e-mail address"
        : "Someone tried to use your e-mail address on Hangar",
      paragraphs: [
        `Hi ${name},`,
        "Someone (maybe you) tried to use this address for another Hangar account. It already has one, so nothing changed.",
        `Forgot your password? ${forgotUrl}`,
      ],
      link: { label: "Sign in", url: signInUrl },
    }),
  reset: (to: string, name: string, url: string): MailMessage =>
    composeMail({
      to,
      subject: "Reset your Hangar password",
      paragraphs: [`Hi ${name},`, "Choose a new password."],
      link: { label: "Choose a new password", url },
      footer:
        "The link works once and expires in 1 hour. If you did not ask for this, ignore this message: your password stays as it is.",
    }),
};

import type { MailMessage } from "./mailer.ts";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/**
 * Every mail we send: a fixed subject (never user-chosen text, which a mail client shows before
 * anything else and some render), paragraphs as plain text and as HTML with every value escaped, and
 * an optional link. User-chosen text (names, workspace names) is only ever inert text in the body.
 */
export function composeMail(m: {
  to: string;
  subject: string;
  paragraphs: string[];
  link?: { url: string; label: string };
  footer?: string;
}): MailMessage {
  const text = [
    ...m.paragraphs,
    ...(m.link ? [`${m.link.label}: ${m.link.url}`] : []),
    ...(m.footer ? [m.footer] : []),
  ];
  const html = [
    ...m.paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll("\n", "<br>")}</p>`),
    ...(m.link ? [`<p><a href="${escapeHtml(m.link.url)}">${escapeHtml(m.link.label)}</a></p>`] : []),
    ...(m.footer ? [`<p>${escapeHtml(m.footer)}</p>`] : []),
  ];
  return {
    to: m.to,
    subject: m.subject,
    text: text.join("\n\n"),
    html: `<!doctype html><html><body>${html.join("\n")}</body></html>`,
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The SPA's index.html for /s/{token}: always `noindex`; for an open link (no password, active,
 * unexpired) an OpenGraph title and thumbnail so a pasted link previews in chat tools. The thumbnail
 * URL is signed for the link like any visitor's, so it dies with the link.
 */
export function sharePageHtml(
  indexHtml: string,
  preview: { title: string; image: string | null } | null,
  publicUrl: string,
): string {
  const tags = ['<meta name="robots" content="noindex, nofollow">'];
  if (preview) {
    tags.push(
      `<meta property="og:type" content="website">`,
      `<meta property="og:title" content="${escapeHtml(preview.title)}">`,
      `<meta property="og:description" content="Shared on Hangar">`,
      `<meta property="og:site_name" content="Hangar">`,
    );
    if (preview.image)
      tags.push(`<meta property="og:image" content="${escapeHtml(new URL(preview.image, publicUrl).toString())}">`);
  }
  return indexHtml.replace("</head>", `    ${tags.join("\n    ")}\n  </head>`);
}

import { describe, expect, it } from "vitest";
import { sharePageHtml } from "./page-meta.ts";

const index = "<html><head><title>Hangar</title></head><body></body></html>";

describe("the share page's head", () => {
  it("is never indexed, and previews an open link with its name and thumbnail (escaped)", () => {
    const html = sharePageHtml(
      index,
      { title: `"Q4" <launch> & co`, image: "/media/a/b/thumbnail.jpg?exp=1&sig=x" },
      "https://dam.example",
    );
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<meta property="og:title" content="&quot;Q4&quot; &lt;launch&gt; &amp; co">');
    expect(html).toContain('content="https://dam.example/media/a/b/thumbnail.jpg?exp=1&amp;sig=x"');
    expect(html.indexOf("og:title")).toBeLessThan(html.indexOf("</head>"));
  });
  it("says nothing of a link behind a password (or closed)", () => {
    const html = sharePageHtml(index, null, "https://dam.example");
    expect(html).toContain("noindex");
    expect(html).not.toContain("og:");
  });
});

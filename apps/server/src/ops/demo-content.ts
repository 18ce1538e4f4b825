// The demo workspace's sample files, made at first start: pictures drawn from SVG by sharp, a short
// clip from ffmpeg's test sources and a small PDF written here. Everything is generated, so nothing
// needs a licence beyond Hangar's own, and nothing binary sits in the repository.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { ffmpegPath } from "../media/video.ts";
import { buildPdf } from "./pdf-writer.ts";

export interface DemoFile {
  name: string;
  /** Board path from the root ("Campaigns/Summer 2026"); null: no board, only in All assets. */
  board: string | null;
  tags: string[];
  bytes: Buffer;
}

const W = 1600;
const H = 1000;

/**
 * A landscape: sky gradient, a sun, three ridges and a caption. Colours give each one its palette.
 * The caption is centred: grid cards crop a picture to their shape from its middle, and a caption in
 * a corner was cut there (issue 35).
 */
export function landscape(sky: [string, string], sun: string, ridges: [string, string, string], caption: string) {
  const ridge = (y: number, amp: number, colour: string, phase: number) => {
    let d = `M0 ${H}`;
    for (let x = 0; x <= W; x += 40)
      d += ` L${x} ${(y + Math.sin(x / 170 + phase) * amp + Math.sin(x / 53) * amp * 0.2).toFixed(1)}`;
    return `<path d="${d} L${W} ${H} Z" fill="${colour}"/>`;
  };
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient></defs>
  <rect width="${W}" height="${H}" fill="url(#s)"/>
  <circle cx="${W * (0.2 + ((caption.length * 7) % 60) / 100)}" cy="${H * (0.22 + (caption.length % 4) * 0.05)}" r="110" fill="${sun}" opacity="0.92"/>
  ${ridge(H * 0.55, 60, ridges[0], 0)}${ridge(H * 0.68, 45, ridges[1], 2)}${ridge(H * 0.82, 30, ridges[2], 4)}
  <text x="${W / 2}" y="${H - 90}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="44" fill="#ffffff" opacity="0.85">${caption}</text>
</svg>`;
}

/** Colour bands, one above the other, each labelled in its middle (so a card's crop keeps every label). */
export function palette(colours: string[]) {
  const h = H / colours.length;
  const bands = colours.map((c, i) => `<rect x="0" y="${i * h}" width="${W}" height="${h + 1}" fill="${c}"/>`).join("");
  const labels = colours
    .map(
      (c, i) =>
        `<text x="${W / 2}" y="${i * h + h / 2 + 13}" text-anchor="middle" font-family="DejaVu Sans Mono, monospace" font-size="36" fill="#fff">${c}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${bands}${labels}</svg>`;
}

const jpeg = (svg: string, exif?: Record<string, Record<string, string>>) => {
  const img = sharp(Buffer.from(svg)).jpeg({ quality: 86 });
  return (exif ? img.withExif(exif) : img).toBuffer();
};

/** A PDF of text pages (Helvetica, latin1), each with a coloured band. */
export function textPdf(pages: Array<{ title: string; lines: string[]; rgb: [number, number, number] }>): Buffer {
  const esc = (t: string) => t.replace(/[\\()]/g, (c) => `\\${c}`);
  const bodies = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"];
  const kids: string[] = [];
  for (const page of pages) {
    const text = page.lines.map((l, i) => `BT /F1 14 Tf 72 ${600 - i * 22} Td (${esc(l)}) Tj ET`).join("\n");
    const content = `${page.rgb.join(" ")} rg 0 692 612 100 re f\nBT /F1 32 Tf 72 720 Td 1 1 1 rg (${esc(page.title)}) Tj ET\n0 0 0 rg\n${text}`;
    bodies.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    bodies.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${bodies.length} 0 R >>`,
    );
    kids.push(`${bodies.length} 0 R`);
  }
  bodies[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages.length} >>`;
  return buildPdf(bodies, "/Info << /Title (Hangar brand guidelines) >> ");
}

/** Six seconds of ffmpeg's colour test pattern with a tone, as H.264/AAC MP4 (about 300 KB). */
async function clip(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-demo-"));
  try {
    const out = path.join(dir, "clip.mp4");
    await promisify(execFile)(
      await ffmpegPath(),
      [
        "-v",
        "error",
        "-f",
        "lavfi",
        "-i",
        "testsrc2=size=960x540:rate=25:duration=6",
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=440:duration=6",
        "-c:v",
        "libx264",
        "-pix_fmt",
        "yuv420p",
        "-preset",
        "veryfast",
        "-c:a",
        "aac",
        "-shortest",
        "-movflags",
        "+faststart",
        out,
      ],
      { timeout: 60_000 },
    );
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const camera = (make: string, model: string, date: string) => ({
  IFD0: { Make: make, Model: model },
  IFD2: {
    DateTimeOriginal: date,
    ISOSpeedRatings: "200",
    FNumber: "56/10",
    ExposureTime: "1/500",
    FocalLength: "35/1",
  },
});

export async function demoFiles(): Promise<DemoFile[]> {
  const summer = "Campaigns/Summer 2026";
  return [
    {
      name: "Coastal sunrise.jpg",
      board: summer,
      tags: ["sunrise", "coast"],
      bytes: await jpeg(
        landscape(["#ff9a62", "#ffd9a0"], "#fff3c4", ["#3d5a80", "#2b4162", "#1b263b"], "Coastal sunrise"),
        camera("Canon", "Canon EOS R5", "2026:06:21 05:42:00"),
      ),
    },
    {
      name: "Alpine lake.jpg",
      board: summer,
      tags: ["mountains", "lake"],
      bytes: await jpeg(
        landscape(["#5fa8d3", "#cae9ff"], "#ffffff", ["#62b6cb", "#1b4965", "#0b2a3d"], "Alpine lake"),
        camera("FUJIFILM", "X-T5", "2026:07:03 11:15:00"),
      ),
    },
    {
      name: "Desert dunes.jpg",
      board: "Photography",
      tags: ["desert"],
      bytes: await jpeg(
        landscape(["#f4a261", "#f9dcb0"], "#fff1d6", ["#e76f51", "#d1603d", "#9c4221"], "Desert dunes"),
      ),
    },
    {
      name: "Forest ridge.jpg",
      board: "Photography",
      tags: ["forest", "mountains"],
      bytes: await jpeg(
        landscape(["#a7c957", "#e9f5db"], "#fefae0", ["#6a994e", "#386641", "#1f3a26"], "Forest ridge"),
        camera("SONY", "ILCE-7M4", "2026:05:12 17:30:00"),
      ),
    },
    {
      name: "Moonlit hills.jpg",
      board: "Photography",
      tags: ["night", "hills"],
      bytes: await jpeg(
        landscape(["#0d1b2a", "#415a77"], "#e0e1dd", ["#1b263b", "#10172a", "#070b14"], "Moonlit hills"),
      ),
    },
    {
      name: "Brand palette.png",
      board: "Brand",
      tags: ["brand", "colours"],
      bytes: await sharp(Buffer.from(palette(["#1c7ed6", "#f76707", "#37b24d", "#ae3ec9", "#212529"])))
        .png()
        .toBuffer(),
    },
    {
      name: "Brand guidelines.pdf",
      board: "Brand",
      tags: ["brand", "guidelines"],
      bytes: textPdf([
        {
          title: "Brand guidelines",
          rgb: [0.11, 0.49, 0.84],
          lines: ["A sample document made by Hangar for the demo workspace.", "Open it to page through it."],
        },
        {
          title: "Logo",
          rgb: [0.97, 0.4, 0.03],
          lines: ["Keep clear space around the logo equal to its height.", "Never stretch or recolour it."],
        },
        {
          title: "Colour",
          rgb: [0.22, 0.7, 0.3],
          lines: ["Primary: blue #1C7ED6. Accent: orange #F76707.", "See Brand palette.png on the Brand board."],
        },
        { title: "Type", rgb: [0.68, 0.24, 0.79], lines: ["Headings: DejaVu Sans Bold.", "Body: DejaVu Sans, 14 pt."] },
      ]),
    },
    { name: "Product teaser.mp4", board: summer, tags: ["video"], bytes: await clip() },
  ];
}

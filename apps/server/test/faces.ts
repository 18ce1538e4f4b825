import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

/** Photos of real people, shipped with the tests (files/faces/LICENSE.md: MIT, from @vladmandic/face-api's demo). */
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "files", "faces");
export const GROUP_PHOTOS = [1, 3, 4, 5, 6].map((n) => path.join(dir, `group-${n}.jpg`));
export const groupPhoto = (n: 1 | 3 | 4 | 5 | 6) => path.join(dir, `group-${n}.jpg`);

/** One way of cutting a face out: the crop's side in face sizes, its offset (face sizes), output size, mirrored. */
export interface CropVariant {
  name: string;
  scale: number;
  dx: number;
  dy: number;
  size: number;
  flip: boolean;
}

/** The crops of the labelled set: tight to loose, small to large, one mirrored. */
export const CROP_VARIANTS: CropVariant[] = [
  { name: "tight-300", scale: 2.0, dx: 0, dy: 0, size: 300, flip: false },
  { name: "loose-200", scale: 3.0, dx: 0.2, dy: -0.1, size: 200, flip: false },
  { name: "close-500", scale: 1.6, dx: -0.1, dy: 0.1, size: 500, flip: false },
  { name: "mirror-360", scale: 2.5, dx: 0, dy: 0.15, size: 360, flip: true },
  { name: "tiny-140", scale: 4.0, dx: 0, dy: 0, size: 140, flip: false },
];

/**
 * A face of a photo cut out as its own JPEG: `box` is the face's box (fractions of the photo). Answers
 * the bytes and where the face's centre lands in the crop (fractions), to tell it from a neighbour.
 */
export async function faceCrop(photo: string, box: number[], v: CropVariant) {
  const meta = await sharp(photo).metadata();
  const W = meta.width!;
  const H = meta.height!;
  const cx = (box[0]! + box[2]! / 2) * W;
  const cy = (box[1]! + box[3]! / 2) * H;
  const s = Math.max(box[2]! * W, box[3]! * H);
  const side = Math.round(s * v.scale);
  const left = Math.max(0, Math.round(cx - side / 2 + v.dx * s));
  const top = Math.max(0, Math.round(cy - side / 2 + v.dy * s));
  const width = Math.min(W - left, side);
  const height = Math.min(H - top, side);
  let img = sharp(photo).extract({ left, top, width, height }).resize(v.size, v.size, { fit: "inside" });
  if (v.flip) img = img.flop();
  const cxIn = (cx - left) / width;
  return {
    bytes: await img.jpeg({ quality: 85 }).toBuffer(),
    centre: [v.flip ? 1 - cxIn : cxIn, (cy - top) / height] as [number, number],
  };
}

/** The box nearest a point (the face a crop was cut for). */
export const nearestBox = <T extends { box: number[] }>(faces: T[], centre: [number, number]): T | undefined =>
  [...faces].sort(
    (a, b) =>
      (a.box[0]! + a.box[2]! / 2 - centre[0]) ** 2 +
      (a.box[1]! + a.box[3]! / 2 - centre[1]) ** 2 -
      ((b.box[0]! + b.box[2]! / 2 - centre[0]) ** 2 + (b.box[1]! + b.box[3]! / 2 - centre[1]) ** 2),
  )[0];

/** A landscape without people: sky, sun, hills and a lake, drawn. */
export const landscapeJpeg = () =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="680">
      <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4a90d9"/><stop offset="1" stop-color="#cfe8ff"/></linearGradient></defs>
      <rect width="1024" height="680" fill="url(#s)"/><circle cx="820" cy="140" r="60" fill="#ffd54a"/>
      <path d="M0 420 Q200 300 420 400 T1024 380 V680 H0Z" fill="#3d7a3a"/>
      <path d="M0 500 Q300 430 600 500 T1024 480 V680 H0Z" fill="#2f5f2c"/>
      <ellipse cx="520" cy="600" rx="300" ry="40" fill="#5fa8d3"/></svg>`),
  )
    .jpeg({ quality: 85 })
    .toBuffer();

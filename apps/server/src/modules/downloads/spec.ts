/** What a zip URL asks for; signed, so it is trusted once the signature checks. */
export interface ZipSpec {
  workspaceId: string;
  /** Who asked: a member's user id, or (with `link`) a share link's id. */
  userId: string;
  /** Asked through a share link: the link's password version then (the URL dies when it changes). */
  link?: { version: number };
  assetIds: string[];
  boardIds: string[];
  includeSubboards: boolean;
  flatten: boolean;
  boardAtRoot: boolean;
}

const VERSION = 1;
const HEX_ID = /^[0-9a-f]{32}$/;

const idBytes = (id: string) => Buffer.from(id.replace(/-/g, ""), "hex");
const idText = (b: Buffer) => {
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/**
 * Binary, base64url: 16 bytes an id (22 characters) instead of 36 in JSON, so a zip of a few
 * hundred hand-picked assets still fits in a request line. Layout: version, flags, workspace,
 * user, board count (u16), boards, asset count (u16), assets; with flag 8 (asked through a share
 * link, whose id stands in the user's place) the link's password version (u32) last.
 */
export function encodeZipSpec(s: ZipSpec): string {
  const flags = (s.includeSubboards ? 1 : 0) | (s.flatten ? 2 : 0) | (s.boardAtRoot ? 4 : 0) | (s.link ? 8 : 0);
  const count = (n: number) => {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(n);
    return b;
  };
  return Buffer.concat([
    Buffer.from([VERSION, flags]),
    idBytes(s.workspaceId),
    idBytes(s.userId),
    count(s.boardIds.length),
    ...s.boardIds.map(idBytes),
    count(s.assetIds.length),
    ...s.assetIds.map(idBytes),
    ...(s.link ? [u32(s.link.version)] : []),
  ]).toString("base64url");
}

/** Null for anything that is not exactly what encodeZipSpec writes. */
export function decodeZipSpec(text: string): ZipSpec | null {
  const b = Buffer.from(text, "base64url");
  if (b.length < 36 || b[0] !== VERSION) return null;
  let at = 2;
  const id = () => {
    const v = b.subarray(at, at + 16);
    at += 16;
    return v.length === 16 && HEX_ID.test(v.toString("hex")) ? idText(v) : null;
  };
  const ids = () => {
    if (at + 2 > b.length) return null;
    const n = b.readUInt16BE(at);
    at += 2;
    if (at + n * 16 > b.length) return null;
    return Array.from({ length: n }, () => id() as string);
  };
  const flags = b[1] ?? 0;
  const workspaceId = id();
  const userId = id();
  const boardIds = ids();
  const assetIds = boardIds ? ids() : null;
  let link: ZipSpec["link"];
  if (flags & 8 && at + 4 <= b.length) {
    link = { version: b.readUInt32BE(at) };
    at += 4;
  } else if (flags & 8) return null;
  if (!workspaceId || !userId || !boardIds || !assetIds || at !== b.length) return null;
  return {
    workspaceId,
    userId,
    ...(link ? { link } : {}),
    boardIds,
    assetIds,
    includeSubboards: (flags & 1) !== 0,
    flatten: (flags & 2) !== 0,
    boardAtRoot: (flags & 4) !== 0,
  };
}

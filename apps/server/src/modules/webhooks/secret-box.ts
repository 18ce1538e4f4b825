import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

/**
 * Signing secrets at rest (issue 36). The server must sign with the plain secret, so it cannot keep a
 * hash as it does for API keys; it keeps the secret sealed with AES-256-GCM under a key derived (HKDF)
 * from the server's key (`SECRET_KEY`, else the key generated into the database). A dump of the
 * table alone then holds no usable secret. The box names its key by a short fingerprint, so a secret
 * sealed under another key (SECRET_KEY changed) is told apart from a damaged one.
 */
export interface SecretBox {
  seal(plain: string): Promise<string>;
  /** The plain secret; throws when the box was sealed under another key or was altered. */
  open(box: string): Promise<string>;
}

const VERSION = "v1";

export function createSecretBox(serverKey: () => Promise<string>): SecretBox {
  let derived: Promise<{ key: Buffer; id: string }> | null = null;
  const keyOf = () =>
    (derived ??= serverKey().then((k) => {
      const key = Buffer.from(hkdfSync("sha256", k, "hangar", "webhook signing secrets", 32));
      return { key, id: createHash("sha256").update(key).digest("hex").slice(0, 8) };
    }));
  return {
    async seal(plain) {
      const { key, id } = await keyOf();
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url"));
      return [VERSION, id, ...parts].join(".");
    },
    async open(box) {
      const { key, id } = await keyOf();
      const [version, keyId, iv, tag, data] = box.split(".");
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error("not a sealed secret");
      if (keyId !== id) throw new Error("sealed under another server key (was SECRET_KEY changed?)");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

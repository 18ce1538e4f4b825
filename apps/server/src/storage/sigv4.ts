import { createHash, createHmac } from "node:crypto";

/** RFC 3986 encoding, as SigV4 canonical requests use it. */
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();

/**
 * Re-signs a SigV4 presigned S3 URL made by the SDK with other query values and header values
 * (another part number and length of the same multipart upload). The SDK's presigner costs about
 * 2 ms a URL in middleware; this is a few HMACs, so an upload of thousands of parts gets its URLs
 * without holding the event loop. Same date, scope and signed headers as the template; the result
 * equals what the SDK would have made (tested against it).
 */
export function resignPresignedUrl(
  template: string,
  secretAccessKey: string,
  change: { method: string; query: Record<string, string>; headers: Record<string, string> },
): string {
  const url = new URL(template);
  for (const [k, v] of Object.entries(change.query)) url.searchParams.set(k, v);
  const q = Object.fromEntries(url.searchParams);
  const signedHeaders = (q["X-Amz-SignedHeaders"] ?? "").split(";");
  const headerValue = (h: string) => (h === "host" ? url.host : change.headers[h]);
  for (const h of signedHeaders) {
    if (headerValue(h) === undefined) throw new Error(`resign: no value for the signed header ${h}`);
  }
  const canonical = [
    change.method,
    url.pathname,
    Object.keys(q)
      .filter((k) => k !== "X-Amz-Signature")
      .sort()
      .map((k) => `${rfc3986(k)}=${rfc3986(q[k] ?? "")}`)
      .join("&"),
    signedHeaders.map((h) => `${h}:${String(headerValue(h)).trim().replace(/\s+/g, " ")}\n`).join(""),
    signedHeaders.join(";"),
    q["X-Amz-Content-Sha256"] ?? "UNSIGNED-PAYLOAD",
  ].join("\n");
  const [, date, region, service] = (q["X-Amz-Credential"] ?? "").split("/");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = [
    "AWS4-HMAC-SHA256",
    q["X-Amz-Date"],
    scope,
    createHash("sha256").update(canonical).digest("hex"),
  ].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date ?? ""), region ?? ""), service ?? ""), "aws4_request");
  url.searchParams.set("X-Amz-Signature", createHmac("sha256", key).update(toSign).digest("hex"));
  return url.toString();
}

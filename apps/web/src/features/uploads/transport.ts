import { CSRF, UPLOAD_MESSAGES } from "@hangar/contract";
import { refreshCsrfToken } from "../../lib/api-client";

/**
 * XMLHttpRequest, not fetch, for the byte-carrying calls: only XHR reports upload progress. Each
 * failure becomes an UploadError whose message is the exact text the item shows (spec 01 §8).
 */
export class UploadError extends Error {
  /** Worth another try (network errors, 5xx, 408, 429); a 4xx or a missing ETag is not. */
  readonly transient: boolean;
  readonly status: number;
  constructor(message: string, opts: { transient?: boolean; status?: number } = {}) {
    super(message);
    this.name = "UploadError";
    this.transient = opts.transient ?? false;
    this.status = opts.status ?? 0;
  }
}

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

export interface XhrAnswer {
  status: number;
  ok: boolean;
  etag: string | null;
  body: unknown;
}

interface XhrOptions {
  method: "PUT" | "POST";
  url: string;
  body: XMLHttpRequestBodyInit;
  headers?: Record<string, string>;
  /** Bytes of the request body sent so far, and its total. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

function parse(xhr: XMLHttpRequest): unknown {
  const text = xhr.responseText;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Resolves with any HTTP answer; rejects with the network message, or an AbortError. */
export function xhrSend({ method, url, body, headers = {}, onProgress, signal }: XhrOptions): Promise<XhrAnswer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException("Upload cancelled", "AbortError"));
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    // Cookies go only to our own server. Bytes sent straight to S3 (presigned URLs carry their own
    // proof) must not be credentialed: the bucket's CORS rules would have to allow credentials.
    xhr.withCredentials = new URL(url, window.location.href).origin === window.location.origin;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) xhr.upload.onprogress = (event) => onProgress(event.loaded, event.total || 0);
    const abort = () => xhr.abort();
    signal?.addEventListener("abort", abort, { once: true });
    const done = () => signal?.removeEventListener("abort", abort);
    xhr.onload = () => {
      done();
      resolve({
        status: xhr.status,
        ok: xhr.status >= 200 && xhr.status < 300,
        etag: xhr.getResponseHeader("ETag"),
        body: parse(xhr),
      });
    };
    xhr.onerror = () => {
      done();
      reject(new UploadError(UPLOAD_MESSAGES.network, { transient: true }));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(new DOMException("Upload cancelled", "AbortError"));
    };
    xhr.send(body);
  });
}

/** The server's detail or message, if the answer carried one. */
export function detailOf(body: unknown): string {
  if (body && typeof body === "object") {
    const record = body as Record<string, unknown>;
    if (typeof record.detail === "string") return record.detail;
    if (typeof record.message === "string") return record.message;
  }
  return "";
}

export const isTransientStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/** "Upload failed: 500 Something broke" for a non-2xx answer. */
export function failedAnswer(answer: Pick<XhrAnswer, "status" | "body">): UploadError {
  return new UploadError(UPLOAD_MESSAGES.failed(answer.status, detailOf(answer.body)), {
    transient: isTransientStatus(answer.status),
    status: answer.status,
  });
}

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/**
 * CSRF headers for an XHR mutation: the double-submit cookie echoed back (fetched first when there is
 * none yet). `fresh` asks the server for a new token, after a 403 that mentions CSRF.
 */
export async function csrfHeaders(fresh = false): Promise<Record<string, string>> {
  const token = (!fresh && readCookie(CSRF.cookie)) || (await refreshCsrfToken());
  return { [CSRF.altHeader]: token, [CSRF.header]: token };
}

export const isCsrfFailure = (answer: XhrAnswer) => answer.status === 403 && /csrf/i.test(detailOf(answer.body));

/** Runs `task` over `items` with at most `limit` running at once. */
export async function forEachLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

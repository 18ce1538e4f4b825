import { afterEach, beforeEach, vi } from "vitest";

/**
 * The other network boundary: XMLHttpRequest, which the uploads use for the bytes (only XHR reports
 * upload progress). Each request is answered by the handler a test sets, right after it is sent, or
 * held (the handler answers undefined) until the test answers it.
 */
export type XhrReply = { status: number; etag?: string; body?: unknown } | "network-error";

export interface XhrRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  aborted: boolean;
  respond(reply: XhrReply): void;
}

type XhrHandler = (request: XhrRequest) => XhrReply | undefined;

export function installFakeXhr() {
  const requests: XhrRequest[] = [];
  let handler: XhrHandler = () => ({ status: 500 });

  class FakeXhr {
    upload: { onprogress: ((e: { loaded: number; total: number }) => void) | null } = { onprogress: null };
    withCredentials = false;
    status = 0;
    responseText = "";
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private request: XhrRequest | null = null;
    private responseHeaders: Record<string, string> = {};
    private method = "GET";
    private url = "";
    private headers: Record<string, string> = {};

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    getResponseHeader(name: string): string | null {
      return this.responseHeaders[name.toLowerCase()] ?? null;
    }
    send(body: unknown) {
      let done = false;
      const request: XhrRequest = {
        method: this.method,
        url: this.url,
        headers: this.headers,
        body,
        aborted: false,
        respond: (reply) => {
          if (done) return;
          done = true;
          if (reply === "network-error") return this.onerror?.();
          const size = body instanceof Blob ? body.size : 0;
          this.upload.onprogress?.({ loaded: size, total: size });
          this.status = reply.status;
          this.responseHeaders = reply.etag ? { etag: reply.etag } : {};
          this.responseText = reply.body === undefined ? "" : JSON.stringify(reply.body);
          this.onload?.();
        },
      };
      this.request = request;
      requests.push(request);
      queueMicrotask(() => {
        if (done || request.aborted) return;
        const reply = handler(request);
        if (reply) request.respond(reply);
      });
    }
    abort() {
      if (!this.request || this.request.aborted) return;
      this.request.aborted = true;
      this.request.respond = () => {};
      this.onabort?.();
    }
  }

  beforeEach(() => {
    requests.length = 0;
    handler = () => ({ status: 500 });
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  return {
    requests,
    /** How each request is answered (undefined: held until the test calls `respond`). */
    answer(next: XhrHandler) {
      handler = next;
    },
  };
}
